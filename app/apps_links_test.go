package app

import (
	"slices"
	"testing"
	"time"

	"github.com/gatehouse-app/gatehouse/mcp"
	"github.com/gatehouse-app/gatehouse/store"
)

// An app's ui/open-link (OpenLink) is a Broker question like the app's
// other requests: checked first, asked in the consent dialog naming the
// app, opened through the one opener only when the person chose to.

func TestApps_OpenLinkRefusesAllButWebAddressesUnasked(t *testing.T) {
	f := newAppsFixture(t)
	v := f.open(t, "")
	for _, url := range []string{
		"http://budget.example/",
		"file:///etc/passwd",
		"smb://server/share",
		"javascript:alert(1)",
		"data:text/html,<script>alert(1)</script>",
		"gatehouse-app://" + v.InstanceID + "/index.html",
		"wails://wails/",
		"",
	} {
		opened, err := f.apps.OpenLink(v.InstanceID, url)
		if opened || !isMessage(err, "links.error.refused") {
			t.Errorf("OpenLink(%q) = %v, %v; want refused with a sentence", url, opened, err)
		}
	}
	f.core.Broker.FlushHistory()
	if hist, _ := f.core.Store.History(store.HistoryFilter{ServerID: f.budgetID}); len(hist) != 0 {
		t.Errorf("a refused address was asked: %+v", hist)
	}
}

func TestApps_LinkOpensOnlyWhenThePersonChoosesTo(t *testing.T) {
	for _, open := range []bool{true, false} {
		t.Run(map[bool]string{true: "opened", false: "declined"}[open], func(t *testing.T) {
			log := fakeBrowser(t)
			f := newAppsFixture(t)
			v := f.open(t, "")
			const url = "https://budget.example/help?topic=limits"
			var q *mcp.Question
			done := make(chan struct{})
			go func() {
				defer close(done)
				var reply *mcp.Reply
				if open {
					reply = &mcp.Reply{Kind: mcp.KindURL, Open: OpenLink} // QuestionService.Open
				}
				q = f.answer(t, reply)
			}()
			opened, err := f.apps.OpenLink(v.InstanceID, url)
			<-done
			if err != nil || opened != open {
				t.Fatalf("OpenLink = %v, %v; want %v", opened, err, open)
			}
			if q.Kind != mcp.KindAppLink || q.AppLink == nil || q.AppLink.App != "Budget allocator" || q.Link == nil ||
				q.Link.URL != url || q.Server.Name != "Budget" || !q.OpensPage() {
				t.Fatalf("question %+v; want the Budget allocator app's link, checked", q)
			}
			got := browserArgs(t, log)
			if open && !slices.Equal(got, []string{"ARG:" + url}) || !open && len(got) != 0 {
				t.Errorf("the browser got %q", got)
			}
			f.core.Broker.FlushHistory()
			hist, _ := f.core.Store.History(store.HistoryFilter{ServerID: f.budgetID})
			want := map[bool]string{true: store.OutcomeAccepted, false: store.OutcomeDeclined}[open]
			if len(hist) != 1 || hist[0].Mode != mcp.KindAppLink || hist[0].Outcome != want || hist[0].URL != url ||
				hist[0].Summary.Key != "history.summary.appLink" {
				t.Errorf("history %+v; want the app's link %s", hist, want)
			}
		})
	}
}

func TestApps_LinkIsNotAcceptedWithoutOpeningIt(t *testing.T) {
	log := fakeBrowser(t)
	f := newAppsFixture(t)
	v := f.open(t, "")
	q, result := askLink(t, f, v.InstanceID, "https://budget.example/")
	if _, err := f.core.Broker.Accept(q.ID, mcp.Reply{Kind: mcp.KindURL}); !isMessage(err, "mcp.broker.noPage") {
		t.Errorf("accepted without opening: %v", err)
	}
	if _, err := f.core.Broker.Accept(q.ID, mcp.Reply{Kind: mcp.KindAppMessage}); err == nil {
		t.Error("an app message's answer accepted a link")
	}
	if err := f.core.Broker.Decline(q.ID); err != nil {
		t.Fatal(err)
	}
	if <-result {
		t.Error("the app heard its link opened")
	}
	if got := browserArgs(t, log); len(got) != 0 {
		t.Errorf("the browser got %q", got)
	}
}

func TestApps_OneLinkAtATimeAndThreeRefusalsEndTheAsking(t *testing.T) {
	f := newAppsFixture(t)
	v := f.open(t, "")
	q, first := askLink(t, f, v.InstanceID, "https://budget.example/one")
	// Asked while the first is on screen: refused at once, and the dialog keeps the first.
	if opened, err := f.apps.OpenLink(v.InstanceID, "https://evil.example/"); opened || err != nil {
		t.Errorf("a second link = %v, %v; want refused unasked", opened, err)
	}
	if snap := f.core.Broker.Snapshot(); snap.Current == nil || snap.Current.ID != q.ID || len(snap.Waiting) != 0 {
		t.Errorf("the screen changed under the first link: %+v", snap)
	}
	if err := f.core.Broker.Decline(q.ID); err != nil { // the first refusal
		t.Fatal(err)
	}
	<-first
	for i := 2; i <= 3; i++ {
		go f.answer(t, nil)
		if opened, err := f.apps.OpenLink(v.InstanceID, "https://budget.example/again"); opened || err != nil {
			t.Fatalf("refusal %d: %v, %v", i, opened, err)
		}
	}
	// Three refused: the app asks no more.
	if opened, err := f.apps.OpenLink(v.InstanceID, "https://budget.example/last"); opened || err != nil {
		t.Errorf("a fourth link = %v, %v; want refused unasked", opened, err)
	}
	f.core.Broker.FlushHistory()
	if hist, _ := f.core.Store.History(store.HistoryFilter{ServerID: f.budgetID}); len(hist) != 3 {
		t.Errorf("%d questions in the history; want the 3 the person refused", len(hist))
	}
	// Another instance of the app asks afresh.
	w := f.open(t, "")
	go f.answer(t, nil)
	if _, err := f.apps.OpenLink(w.InstanceID, "https://budget.example/fresh"); err != nil {
		t.Fatal(err)
	}
	f.core.Broker.FlushHistory()
	if hist, _ := f.core.Store.History(store.HistoryFilter{ServerID: f.budgetID}); len(hist) != 4 {
		t.Errorf("%d questions in the history; want a fourth from the new instance", len(hist))
	}
}

// askLink has the app instance ask for url to be opened and returns the
// question on screen, and what OpenLink will report once it is answered.
func askLink(t *testing.T, f *appsFixture, instanceID, url string) (*mcp.Question, <-chan bool) {
	t.Helper()
	opened := make(chan bool, 1)
	go func() {
		ok, _ := f.apps.OpenLink(instanceID, url)
		opened <- ok
	}()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if q := f.core.Broker.Snapshot().Current; q != nil {
			return q, opened
		}
		if time.Now().After(deadline) {
			t.Fatal("no question was asked")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
