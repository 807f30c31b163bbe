package cli

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rivo/uniseg"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// cellPattern finds the cells of a printed table line: runs of text
// separated by two spaces or more (a cell may hold single spaces).
var cellPattern = regexp.MustCompile(`\S+(?: \S+)*`)

// columnStarts returns the terminal column at which each cell of a printed
// line starts, counting a wide character as two columns, as a terminal does.
func columnStarts(line string) []int {
	var starts []int
	for _, loc := range cellPattern.FindAllStringIndex(line, -1) {
		starts = append(starts, uniseg.StringWidth(line[:loc[0]]))
	}
	return starts
}

// assertAligned fails unless every line of out starts its columns at the
// same terminal columns as the first line (the header).
func assertAligned(t *testing.T, out string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	want := columnStarts(lines[0])
	for _, line := range lines[1:] {
		if got := columnStarts(line); !slices.Equal(got, want) {
			t.Errorf("columns start at %v in %q, at %v in the header %q\n%s", got, line, want, lines[0], out)
		}
	}
}

func TestTable_ColumnsLineUpOnScreen(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"Chinese headers over Latin names", "名称\t状态\t位置\nDemo server\t已启用\t(built in)\n",
			"名称         状态    位置\n" +
				"Demo server  已启用  (built in)\n"},
		{"Chinese names under Latin headers", "NAME\tSTATE\nWeather\tenabled\n天气预报服务\tdisabled\n",
			"NAME          STATE\n" +
				"Weather       enabled\n" +
				"天气预报服务  disabled\n"},
		{"full-width letters and emoji take two columns, a combining accent none", "NAME\tSTATE\nＡＢ\tx\n🔥 Weather\ty\nCafe\u0301\tz\n",
			"NAME        STATE\n" +
				"ＡＢ        x\n" +
				"🔥 Weather  y\n" +
				"Cafe\u0301        z\n"},
		{"an empty first header cell over the import preview's +/- marks", "\t名称\t传输方式\n+\t天气\tstdio\n-\tGitHub\thttp\n",
			"   名称    传输方式\n" +
				"+  天气    stdio\n" +
				"-  GitHub  http\n"},
		{"a line with fewer cells pads only what it has", "A\tB\tC\n长名字\n",
			"A  B  C\n" +
				"长名字\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			tw := newTable(&out)
			fmt.Fprint(tw, tt.in)
			if err := tw.Flush(); err != nil {
				t.Fatal(err)
			}
			if out.String() != tt.want {
				t.Errorf("table:\n%s\nwant:\n%s", out.String(), tt.want)
			}
		})
	}
}

// TestCLI_ChineseServerListLinesUp: in a Chinese terminal, `servers list`
// starts each column at the same place on every line, under its Chinese
// header, whatever the servers are called.
func TestCLI_ChineseServerListLinesUp(t *testing.T) {
	t.Cleanup(func() { i18n.SetLanguage(i18n.English) })
	i18n.SetLanguage(i18n.Chinese)
	dir := t.TempDir()
	for _, args := range [][]string{
		{"servers", "add", "天气预报", "--url", "https://weather.example/mcp"},
		{"servers", "add", "地图", "--", "node", "map-server.js"},
		{"servers", "add", "Files", "--", "npx", "files"},
	} {
		if code, _, errOut := gh(t, dir, args...); code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, errOut)
		}
	}
	code, out, errOut := gh(t, dir, "servers", "list")
	if code != 0 || !strings.HasPrefix(out, "名称") || !strings.Contains(out, "天气预报") {
		t.Fatalf("servers list: exit %d\n%s%s", code, out, errOut)
	}
	assertAligned(t, out)
}
