package cli

import (
	"strings"
	"testing"

	"github.com/gatehouse-app/gatehouse/i18n"
)

// TestCLI_SpeaksTheTerminalsLanguage: with a Chinese locale the command line
// answers in Chinese (usage, lists, errors), with server names as they are;
// otherwise in English.
func TestCLI_SpeaksTheTerminalsLanguage(t *testing.T) {
	t.Cleanup(func() { i18n.SetLanguage(i18n.English) })
	dir := t.TempDir()
	i18n.SetLanguage(i18n.FromEnv(func(k string) string {
		return map[string]string{"LANGUAGE": "zh_CN:en", "LANG": "zh_CN.UTF-8"}[k]
	}))

	code, out, _ := gh(t, dir, "servers", "list")
	if code != 0 || !strings.Contains(out, "名称") || !strings.Contains(out, "Demo server") || !strings.Contains(out, "已启用") {
		t.Errorf("servers list in Chinese: exit %d\n%s", code, out)
	}
	code, _, errOut := gh(t, dir, "servers", "remove", "Nobody")
	if code != 1 || !strings.Contains(errOut, `没有名为 "Nobody" 的服务器`) {
		t.Errorf("an unknown server in Chinese: exit %d\n%s", code, errOut)
	}
	code, _, errOut = gh(t, dir, "servers", "frobnicate")
	if code != 2 || !strings.Contains(errOut, "未知的 servers 子命令") || !strings.Contains(errOut, "用法：") {
		t.Errorf("a usage error in Chinese: exit %d\n%s", code, errOut)
	}

	// A server that cannot start: the sentence around its reason is Chinese too.
	if code, _, errOut := gh(t, dir, "servers", "add", "Broken", "--", "/nonexistent/gatehouse-test-server"); code != 0 {
		t.Fatalf("servers add Broken: exit %d\n%s", code, errOut)
	}
	code, _, errOut = gh(t, dir, "tools", "Broken")
	if code != 1 || !strings.Contains(errOut, "无法连接 Broken：") {
		t.Errorf("a server that cannot start, in Chinese: exit %d\n%s", code, errOut)
	}

	i18n.SetLanguage(i18n.FromEnv(func(k string) string { return map[string]string{"LANG": "C.UTF-8"}[k] }))
	if code, out, _ := gh(t, dir, "servers", "list"); code != 0 || !strings.Contains(out, "NAME") {
		t.Errorf("servers list in English: exit %d\n%s", code, out)
	}
}
