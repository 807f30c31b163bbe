package app

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/chat"
)

// sentEvents records what chatEvents sent, and when.
type sentEvents struct {
	mu     sync.Mutex
	events []ChatEvent
	at     []time.Time
}

func (r *sentEvents) send(ev ChatEvent) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ev)
	r.at = append(r.at, time.Now())
}

func (r *sentEvents) list() ([]ChatEvent, []time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]ChatEvent(nil), r.events...), append([]time.Time(nil), r.at...)
}

func TestChatEvents_AFastStreamReachesTheWindowInFewEventsWithNothingLost(t *testing.T) {
	rec := &sentEvents{}
	events := &chatEvents{send: rec.send}
	var want strings.Builder
	start := time.Now()
	// 2,000 deltas in about a quarter of a second, as a fast local model
	// might send them.
	for i := range 2000 {
		delta := []string{"窗口", " keeps", " up", "。"}[i%4]
		want.WriteString(delta)
		events.emit(ChatEvent{Kind: chat.EventText, Text: delta})
		if i%8 == 7 {
			time.Sleep(time.Millisecond)
		}
	}
	events.emit(ChatEvent{Kind: ChatDone})
	took := time.Since(start)

	got, _ := rec.list()
	var text strings.Builder
	for _, ev := range got[:len(got)-1] {
		if ev.Kind != chat.EventText {
			t.Fatalf("an event of kind %q came before the end", ev.Kind)
		}
		text.WriteString(ev.Text)
	}
	if text.String() != want.String() {
		t.Errorf("the window got %d characters of text, want the %d sent, in order", len([]rune(text.String())), len([]rune(want.String())))
	}
	if last := got[len(got)-1]; last.Kind != ChatDone {
		t.Errorf("the last event is %q, want done after all the text", last.Kind)
	}
	if most := int(took/textInterval) + 2; len(got)-1 > most {
		t.Errorf("%d text events in %s, want at most %d (one per %s)", len(got)-1, took, most, textInterval)
	}
	if got[0].Text != "窗口" {
		t.Errorf("the first event carries %q, want the first delta alone, sent at once", got[0].Text)
	}
}

func TestChatEvents_GatheredTextGoesOnTimeAndBeforeAnyOtherEvent(t *testing.T) {
	tests := []struct {
		name  string
		then  ChatEvent // emitted right after two quick deltas; Kind "" emits nothing
		kinds []string  // what the window gets, in order
		texts []string
	}{
		{"text gathered during a pause goes when the interval is up", ChatEvent{},
			[]string{"text", "text"}, []string{"你", "好吗"}},
		{"a tool call's card comes after the text before it", ChatEvent{Kind: chat.EventCall, Call: &chat.Call{ID: "c1"}},
			[]string{"text", "text", "call"}, []string{"你", "好吗", ""}},
		{"reasoning does not join the text before it", ChatEvent{Kind: chat.EventReasoning, Text: "想"},
			[]string{"text", "text", "reasoning"}, []string{"你", "好吗", "想"}},
		{"the end of the turn comes after all the text", ChatEvent{Kind: ChatFailed, Error: "Stopped."},
			[]string{"text", "text", "failed"}, []string{"你", "好吗", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &sentEvents{}
			events := &chatEvents{send: rec.send}
			start := time.Now()
			events.emit(ChatEvent{Kind: chat.EventText, Text: "你"})
			events.emit(ChatEvent{Kind: chat.EventText, Text: "好"})
			events.emit(ChatEvent{Kind: chat.EventText, Text: "吗"})
			if tt.then.Kind != "" {
				events.emit(tt.then)
			}
			deadline := time.Now().Add(2 * time.Second)
			for {
				got, _ := rec.list()
				if len(got) >= len(tt.kinds) || time.Now().After(deadline) {
					break
				}
				time.Sleep(time.Millisecond)
			}
			time.Sleep(2 * textInterval) // nothing more comes
			got, at := rec.list()
			var kinds, texts []string
			for _, ev := range got {
				kinds, texts = append(kinds, ev.Kind), append(texts, ev.Text)
			}
			if strings.Join(kinds, ",") != strings.Join(tt.kinds, ",") || strings.Join(texts, "|") != strings.Join(tt.texts, "|") {
				t.Fatalf("the window got kinds %v texts %q, want %v %q", kinds, texts, tt.kinds, tt.texts)
			}
			if tt.then.Kind == "" {
				if wait := at[1].Sub(start); wait < textInterval-time.Millisecond || wait > textInterval+500*time.Millisecond {
					t.Errorf("the gathered text went after %s, want about %s", wait, textInterval)
				}
			}
		})
	}
}
