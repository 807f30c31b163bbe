package app

import (
	"testing"

	"github.com/gatehouse-app/gatehouse/llm/llmtest"
)

// A conversation's turns reuse the provider's client (and so its
// connections) while the provider's settings stay the same; a change in
// Settings → Models takes effect at the next turn.
func TestCore_ProviderForKeepsOneProviderWhileItsSettingsStay(t *testing.T) {
	stand := llmtest.NewOpenAI(t, llmtest.Script{APIKey: standInKey})
	core, svc := providersCore(t, &fakeKeyring{broken: true})
	in := ProviderInput{Name: "DeepSeek", Preset: "deepseek", BaseURL: stand.URL, Model: "deepseek-chat", APIKey: standInKey}
	added, err := svc.Add(in)
	if err != nil {
		t.Fatal(err)
	}
	provider := func() any {
		t.Helper()
		p, _, err := core.ProviderFor(added.ID)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	first := provider()
	if provider() != first {
		t.Fatal("a second turn got a new provider, with new connections, though nothing changed")
	}
	in.Model = "deepseek-reasoner"
	if _, err := svc.Update(added.ID, in); err != nil {
		t.Fatal(err)
	}
	changed := provider()
	if changed == first {
		t.Fatal("after the model changed, the turn got the provider made for the old one")
	}
	in.APIKey = "sk-another-key-0123456789"
	if _, err := svc.Update(added.ID, in); err != nil {
		t.Fatal(err)
	}
	if provider() == changed {
		t.Fatal("after the key changed, the turn got the provider made with the old key")
	}
	if err := svc.Remove(added.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := core.ProviderFor(added.ID); err == nil {
		t.Fatal("a removed provider is still given out")
	}
}
