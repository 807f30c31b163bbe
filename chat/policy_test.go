package chat

import (
	"testing"

	"github.com/gatehouse-app/gatehouse/mcp"
)

func TestDecide(t *testing.T) {
	tests := []struct {
		name                           string
		tool, server                   string
		trusted, readOnly, allowedHere bool
		want                           string
	}{
		{"nothing set asks", "", "", false, false, false, mcp.ToolPolicyAsk},
		{"a read-only claim of a server not trusted is asked", "", "", false, true, false, mcp.ToolPolicyAsk},
		{"a read-only tool of a trusted server is allowed", "", "", true, true, false, mcp.ToolPolicyAllow},
		{"trust alone allows no tool that claims nothing", "", "", true, false, false, mcp.ToolPolicyAsk},
		{"a tool set to ask each time is asked though its server is trusted", PolicyAsk, "", true, true, false, mcp.ToolPolicyAsk},
		{"a tool set to ask each time is asked though its server allows", PolicyAsk, PolicyAllow, false, false, false, mcp.ToolPolicyAsk},
		{"an allowance in this conversation holds for a tool that asks each time", PolicyAsk, "", false, false, true, mcp.ToolPolicyAllow},
		{"a tool's deny wins over an allowance in this conversation", PolicyDeny, "", false, false, true, mcp.ToolPolicyDeny},
		{"a tool's allow wins over a server's deny", PolicyAllow, PolicyDeny, false, false, false, mcp.ToolPolicyAllow},
		{"a server's deny wins over trust", "", PolicyDeny, true, true, false, mcp.ToolPolicyDeny},
		{"a server's allow allows a tool that claims nothing", "", PolicyAllow, false, false, false, mcp.ToolPolicyAllow},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got, _ := decide(tc.tool, tc.server, tc.trusted, tc.readOnly, tc.allowedHere); got != tc.want {
				t.Errorf("decide = %q, want %q", got, tc.want)
			}
			if !tc.allowedHere {
				if got, _ := Decide(tc.tool, tc.server, tc.trusted, tc.readOnly); got != tc.want {
					t.Errorf("Decide = %q, want %q", got, tc.want)
				}
			}
		})
	}
}
