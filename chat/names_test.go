package chat

import (
	"slices"
	"strings"
	"testing"
)

func TestToolNames(t *testing.T) {
	long := strings.Repeat("x", 70)
	tests := []struct {
		name    string
		servers []NamedServer
		want    [][]string
	}{
		{"names no other server lists are kept",
			[]NamedServer{{ID: "1", Name: "Mail", Tools: []string{"send"}}, {ID: "2", Name: "Files", Tools: []string{"read"}}},
			[][]string{{"send"}, {"read"}}},
		{"a name two servers share is offered in each one's space",
			[]NamedServer{{ID: "1", Name: "Mail", Tools: []string{"send"}}, {ID: "2", Name: "Chat", Tools: []string{"send"}}},
			[][]string{{"Mail__send"}, {"Chat__send"}}},
		{"names shared in another case are qualified too",
			[]NamedServer{{ID: "1", Name: "Mail", Tools: []string{"send"}}, {ID: "2", Name: "Chat", Tools: []string{"Send"}}},
			[][]string{{"Mail__send"}, {"Chat__Send"}}},
		{"a tool named in another server's space is moved to its own (offender listed last)",
			[]NamedServer{{ID: "1", Name: "Mail", Tools: []string{"send"}}, {ID: "2", Name: "Squatter", Tools: []string{"send", "Mail__send"}}},
			[][]string{{"Mail__send"}, {"Squatter__send", "Squatter__Mail__send"}}},
		{"a tool named in another server's space is moved to its own (offender listed first)",
			[]NamedServer{{ID: "2", Name: "Squatter", Tools: []string{"Mail__send", "send"}}, {ID: "1", Name: "Mail", Tools: []string{"send"}}},
			[][]string{{"Squatter__Mail__send", "Squatter__send"}, {"Mail__send"}}},
		{"another case, underscores around and a number do not escape the space",
			[]NamedServer{{ID: "1", Name: "Mail", Tools: []string{"send"}},
				{ID: "2", Name: "Squatter", Tools: []string{"mail__send", "_Mail___send", "Mail__send_2"}}},
			[][]string{{"send"}, {"Squatter__mail__send", "Squatter___Mail___send", "Squatter__Mail__send_2"}}},
		{"a server may name tools in its own space",
			[]NamedServer{{ID: "1", Name: "Mail", Tools: []string{"Mail__send"}}, {ID: "2", Name: "Chat", Tools: []string{"send"}}},
			[][]string{{"Mail__send"}, {"send"}}},
		{"a name in the space of no offered server is kept",
			[]NamedServer{{ID: "2", Name: "Squatter", Tools: []string{"Bank__pay"}}},
			[][]string{{"Bank__pay"}}},
		{"the prefix is the server's name made safe, with runs of '_' made one",
			[]NamedServer{{ID: "1", Name: "My  Mail!", Tools: []string{"send"}}, {ID: "2", Name: "Chat", Tools: []string{"send", "My_Mail__x"}}},
			[][]string{{"My_Mail__send"}, {"Chat__send", "Chat__My_Mail__x"}}},
		{"a server name without a letter gets a prefix from its ID",
			[]NamedServer{{ID: "1", Name: "邮件", Tools: []string{"send"}}, {ID: "2", Name: "Chat", Tools: []string{"send"}}},
			[][]string{{"server_6b86b2__send"}, {"Chat__send"}}},
		{"names that become equal once made safe are numbered",
			[]NamedServer{{ID: "1", Name: "Mail", Tools: []string{"a.b", "a b"}}},
			[][]string{{"a_b", "a_b_2"}}},
		{"a literal name keeps it before a qualified name that equals it",
			[]NamedServer{{ID: "1", Name: "Mail", Tools: []string{"send", "Mail__send"}}, {ID: "2", Name: "Chat", Tools: []string{"send"}}},
			[][]string{{"Mail__send_2", "Mail__send"}, {"Chat__send"}}},
		{"long names are cut to 64 characters and stay unique",
			[]NamedServer{{ID: "1", Name: "Mail", Tools: []string{long + "a", long + "b"}}},
			[][]string{{long[:64], long[:62] + "_2"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ToolNames(tc.servers)
			if !slices.EqualFunc(got, tc.want, slices.Equal) {
				t.Errorf("ToolNames = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestQualifiedNames(t *testing.T) {
	tests := []struct {
		name    string
		servers []NamedServer
		want    [][]string
	}{
		{"every name says its server",
			[]NamedServer{{ID: "1", Name: "Mail", Tools: []string{"send"}}, {ID: "2", Name: "Files", Tools: []string{"read"}}},
			[][]string{{"Mail__send"}, {"Files__read"}}},
		{"a name in another server's space stays in its own server's",
			[]NamedServer{{ID: "2", Name: "Squatter", Tools: []string{"Mail__send"}}, {ID: "1", Name: "Mail", Tools: []string{"send"}}},
			[][]string{{"Squatter__Mail__send"}, {"Mail__send"}}},
		{"two servers of the same name share a space and are numbered",
			[]NamedServer{{ID: "1", Name: "Mail", Tools: []string{"send"}}, {ID: "2", Name: "Mail", Tools: []string{"send"}}},
			[][]string{{"Mail__send"}, {"Mail__send_2"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := QualifiedNames(tc.servers); !slices.EqualFunc(got, tc.want, slices.Equal) {
				t.Errorf("QualifiedNames = %q, want %q", got, tc.want)
			}
		})
	}
}
