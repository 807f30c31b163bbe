package app

import (
	"strings"
	"testing"

	"github.com/gatehouse-app/gatehouse/chat"
	"github.com/gatehouse-app/gatehouse/llm"
	"github.com/gatehouse-app/gatehouse/llm/llmtest"
	"github.com/gatehouse-app/gatehouse/store"
)

// TestChatService_AttachmentsAreStoredAndSentAgain: the person attaches the
// real demo server's read-me and logo to a message; a scripted stand-in
// model server (no model can run on these machines) records what it
// received. The message is stored with its attachments (a reload shows
// them), and the next turn sends them again with the history.
func TestChatService_AttachmentsAreStoredAndSentAgain(t *testing.T) {
	core, _ := openTestCore(t)
	if err := core.ConnectAll(); err != nil {
		t.Fatal(err)
	}
	demo := demoID(t, core)
	waitUntil(t, "the demo server to connect", func() bool { st, _ := core.Manager.Status(demo); return st.State == "connected" })

	stand := llmtest.NewOpenAI(t, llmtest.Script{Turns: []llmtest.Turn{{Text: []string{"Read."}}, {Text: []string{"Still there."}}}})
	provider, err := core.Store.PutProvider(store.Provider{Name: "Stand-in", Kind: store.ProviderOpenAI, BaseURL: stand.URL, Model: "stand-in"})
	if err != nil {
		t.Fatal(err)
	}
	svc := NewChatService(core, func(id string) (llm.Provider, store.Provider, error) {
		p, err := core.Store.Provider(id)
		if err != nil {
			return nil, p, err
		}
		lp, err := llm.New(toConfig(p, ""))
		return lp, p, err
	})
	conv, err := svc.NewConversation(provider.ID, "", "", []string{demo})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.SendWithAttachments(conv.ID, "", []chat.AttachmentRequest{
		{ServerID: demo, URI: "gatehouse-demo://readme", Name: "Demo server read-me"},
		{ServerID: demo, URI: "gatehouse-demo://logo.png", Name: "Demo logo"},
	}); err != nil {
		t.Fatal(err)
	}
	svc.Wait()
	if err := svc.Send(conv.ID, "Are they still there?"); err != nil {
		t.Fatal(err)
	}
	svc.Wait()

	msgs, err := allMessages(svc, conv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 4 || msgs[0].Role != store.RoleUser || len(msgs[0].Attachments) != 2 {
		t.Fatalf("stored %+v", msgs)
	}
	readme, logo := msgs[0].Attachments[0], msgs[0].Attachments[1]
	if readme.ServerName != DemoServerName || readme.Name != "Demo server read-me" || !strings.Contains(readme.Text, "weekend_plan") ||
		logo.MimeType != "image/png" || len(logo.Image) == 0 || logo.Size != len(logo.Image) {
		t.Errorf("stored attachments %+v / %s %d bytes", readme, logo.MimeType, len(logo.Image))
	}
	got, _ := core.Store.Conversation(conv.ID)
	if got.Title != "Demo server read-me" {
		t.Errorf("title %q, want the first attachment's name", got.Title)
	}
	reqs := stand.ChatRequests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests", len(reqs))
	}
	for i, r := range reqs {
		body := string(r.Body)
		// The stand-in provider is not known to read images: the logo goes as a sentence.
		if !strings.Contains(body, `Attached resource \"Demo server read-me\" (gatehouse-demo://readme)`) ||
			!strings.Contains(body, "This model does not read images") || strings.Contains(body, "image_url") {
			t.Errorf("request %d did not carry the attachments as text: %.600s", i+1, body)
		}
	}
}
