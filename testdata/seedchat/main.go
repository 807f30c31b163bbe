// Command seedchat seeds a Gatehouse data directory with one long
// conversation, for the window's end-to-end tests of long conversations
// (frontend/e2e/chat-long.test.mjs): a model provider at the given address
// and a conversation of -messages messages, each round a question and a
// Markdown answer, every 50th answer holding a word found nowhere else.
//
//	go run ./testdata/seedchat -data DIR -provider http://127.0.0.1:PORT/v1 -model NAME -messages 1000
//
// It prints the conversation's ID.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/gatehouse-app/gatehouse/app"
	"github.com/gatehouse-app/gatehouse/llm"
	"github.com/gatehouse-app/gatehouse/store"
)

func main() {
	data := flag.String("data", "", "the data directory")
	provider := flag.String("provider", "", "the model provider's base URL")
	model := flag.String("model", "", "the model")
	n := flag.Int("messages", 1000, "messages in the conversation")
	flag.Parse()
	if err := seed(*data, *provider, *model, *n); err != nil {
		fmt.Fprintln(os.Stderr, "seedchat:", err)
		os.Exit(1)
	}
}

func seed(dir, providerURL, model string, n int) error {
	core, err := app.OpenCore(app.CoreOptions{DataDir: dir, DemoCommand: "true"})
	if err != nil {
		return fmt.Errorf("open the data directory: %w", err)
	}
	defer core.Close()
	servers, err := core.Store.Servers()
	if err != nil {
		return fmt.Errorf("list the servers: %w", err)
	}
	for _, s := range servers { // the demo server, which this test does not need
		if err := core.Store.DeleteServer(s.ID); err != nil {
			return fmt.Errorf("remove the demo server: %w", err)
		}
	}
	p, err := app.NewProvidersService(core).Add(app.ProviderInput{Name: "Stand-in", Kind: string(llm.KindOpenAI), BaseURL: providerURL, Model: model})
	if err != nil {
		return fmt.Errorf("add the provider: %w", err)
	}
	c, err := core.Store.PutConversation(store.Conversation{Title: "Long", ProviderID: p.ID})
	if err != nil {
		return fmt.Errorf("add the conversation: %w", err)
	}
	var msgs []store.Message
	for i := 0; len(msgs) < n; i++ {
		answer := fmt.Sprintf("Answer %d.\n\nUse a **bufio.Scanner**:\n\n1. Open the file.\n2. Loop on `Scan()`.\n\n```go\nsc := bufio.NewScanner(f)\nfor sc.Scan() {\n\tfmt.Println(sc.Text())\n}\n```", i)
		if i%50 == 7 {
			answer += fmt.Sprintf("\n\nThe word is zanzibar%d.", i)
		}
		msgs = append(msgs,
			store.Message{Role: store.RoleUser, Text: fmt.Sprintf("Question %d: how do I read a file line by line?", i)},
			store.Message{Role: store.RoleAssistant, Text: answer, Usage: &store.Usage{Input: int64(1000 + i), Output: 100}})
	}
	msgs = msgs[:n]
	for len(msgs) > 0 {
		k := min(100, len(msgs))
		if _, err := core.Store.AppendMessages(c.ID, msgs[:k]...); err != nil {
			return fmt.Errorf("add messages: %w", err)
		}
		msgs = msgs[k:]
	}
	fmt.Println(c.ID)
	return nil
}
