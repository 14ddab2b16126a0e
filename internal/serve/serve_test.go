package serve

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/report"
)

// client is one browser session against the test server: its own cookie
// jar, and its page's CSRF token once it opened a page.
type client struct {
	t     *testing.T
	base  string
	http  *http.Client
	token string
}

var tokenRE = regexp.MustCompile(`<meta name="csrf-token" content="([0-9a-f]+)">`)

func newClient(t *testing.T, base string) *client {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &client{t: t, base: base, http: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	body, _ := c.get("/")
	m := tokenRE.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("the catalogue has no CSRF token:\n%.400s", body)
	}
	c.token = m[1]
	return c
}

func (c *client) get(path string) (string, *http.Response) {
	c.t.Helper()
	resp, err := c.http.Get(c.base + path)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b), resp
}

// post sends a form; token "" sends none.
func (c *client) post(path, token string, form url.Values) (string, *http.Response) {
	c.t.Helper()
	if token != "" {
		form.Set("csrf", token)
	}
	req, err := http.NewRequest(http.MethodPost, c.base+path, strings.NewReader(form.Encode()))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := c.http.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b), resp
}

func (c *client) start(scenario string, extra url.Values) (string, *http.Response) {
	c.t.Helper()
	form := url.Values{"scenario": {scenario}, "pace": {"own"}}
	for k, v := range extra {
		form[k] = v
	}
	return c.post("/runs", c.token, form)
}

func runCount(s *Server) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.runs)
}

func TestOnlyServedScenarioFilesCanBeRun(t *testing.T) {
	s, hs := testServer(t)
	c := newClient(t, hs.URL)
	secret := filepath.Join(t.TempDir(), "secret.yaml")
	if err := os.WriteFile(secret, []byte("name: secret\nclients: 2\nalgorithm: safe\nttl: 1s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{
		secret, "../../etc/passwd", "/etc/passwd", "catalogue/../../../etc/passwd", "catalogue/../gc-pause.yaml",
		"scenarios/gc-pause.yaml", "gc-pause.yaml", "catalogue/gc-pause", "catalogue\\gc-pause.yaml", "dir1/x.yaml", "",
	} {
		t.Run("a request naming "+strconv.Quote(name)+" is refused and starts nothing", func(t *testing.T) {
			_, resp := c.start(name, nil)
			if resp.StatusCode != http.StatusNotFound {
				t.Errorf("status %d, want 404", resp.StatusCode)
			}
			if n := runCount(s); n != 0 {
				t.Errorf("%d runs started", n)
			}
		})
	}
	t.Run("a listed name is accepted", func(t *testing.T) {
		_, resp := c.start("catalogue/gc-pause.yaml", url.Values{"predict": {"on"}})
		if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/run/") {
			t.Errorf("status %d, location %q; want a redirect to the run's page", resp.StatusCode, resp.Header.Get("Location"))
		}
	})
}

func TestOnlyListedReportFilesCanBeRead(t *testing.T) {
	s, hs := testServer(t)
	c := newClient(t, hs.URL)
	// A stored report, as a run leaves it, and a file beside --out.
	dir := filepath.Join(s.o.Out, "gc-pause", "20260101-000000-seed42")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"results.json": `{"scenario":"gc-pause","seed":42,"verdict":"invalid","lang":"en"}`,
		"index.html": "<p>report</p>", "history.jsonl": "{}", "owner.pid": "1"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(s.o.Out), "outside.html"), []byte("<p>outside</p>"), 0o644); err != nil {
		t.Fatal(err)
	}
	body, resp := c.get("/report/en/gc-pause/20260101-000000-seed42/index.html")
	if resp.StatusCode != http.StatusOK || body != "<p>report</p>" {
		t.Fatalf("the listed report: status %d, body %q", resp.StatusCode, body)
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "unsafe-inline") {
		t.Errorf("the report's CSP %q: want strict", csp)
	}
	for _, p := range []string{
		"/report/en/gc-pause/20260101-000000-seed42/owner.pid",
		"/report/en/gc-pause/20260101-000000-seed42/../../../outside.html",
		"/report/en/..%2f..%2foutside.html/index.html",
		"/report/en/%2e%2e/outside.html",
		"/report/en/gc-pause/index.html",
		"/report/xx/gc-pause/20260101-000000-seed42/index.html",
		"/past/..%2f..%2fetc/",
		"/static/../serve.go",
	} {
		t.Run("GET "+p+" is refused", func(t *testing.T) {
			body, resp := c.get(p)
			if loc := resp.Header.Get("Location"); resp.StatusCode/100 == 3 && loc != "" {
				body, resp = c.get(loc) // the mux's cleaned path
			}
			if resp.StatusCode == http.StatusOK || strings.Contains(body, "<p>outside</p>") || strings.Contains(body, "package serve") {
				t.Errorf("status %d, body %.200q", resp.StatusCode, body)
			}
		})
	}
}

func TestAStateChangeWithoutItsTokenIsRefused(t *testing.T) {
	s, hs := testServer(t)
	a, b := newClient(t, hs.URL), newClient(t, hs.URL)
	form := func() url.Values {
		return url.Values{"scenario": {"catalogue/gc-pause.yaml"}, "pace": {"own"}, "predict": {"on"}}
	}
	t.Run("no token", func(t *testing.T) {
		if _, resp := a.post("/runs", "", form()); resp.StatusCode != http.StatusForbidden {
			t.Errorf("status %d, want 403", resp.StatusCode)
		}
	})
	t.Run("a wrong token", func(t *testing.T) {
		if _, resp := a.post("/runs", strings.Repeat("0", 64), form()); resp.StatusCode != http.StatusForbidden {
			t.Errorf("status %d, want 403", resp.StatusCode)
		}
	})
	t.Run("another browser's token", func(t *testing.T) {
		if _, resp := a.post("/runs", b.token, form()); resp.StatusCode != http.StatusForbidden {
			t.Errorf("status %d, want 403", resp.StatusCode)
		}
	})
	t.Run("no session at all", func(t *testing.T) {
		resp, err := http.PostForm(hs.URL+"/runs", url.Values{"csrf": {a.token}, "scenario": {"catalogue/gc-pause.yaml"}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("status %d, want 403", resp.StatusCode)
		}
	})
	t.Run("the right token from another origin", func(t *testing.T) {
		f := form()
		f.Set("csrf", a.token)
		req, _ := http.NewRequest(http.MethodPost, hs.URL+"/runs", strings.NewReader(f.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", "http://evil.example")
		resp, err := a.http.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("status %d, want 403", resp.StatusCode)
		}
	})
	if n := runCount(s); n != 0 {
		t.Fatalf("%d runs were made by refused requests", n)
	}
	_, resp := a.start("catalogue/gc-pause.yaml", url.Values{"predict": {"on"}})
	run := strings.TrimSuffix(strings.TrimPrefix(resp.Header.Get("Location"), "/run/"), "/")
	if run == "" {
		t.Fatalf("status %d: the run was not made", resp.StatusCode)
	}
	for _, what := range []string{"go", "fault", "stop", "save"} {
		t.Run(what+" without the token, or from another browser", func(t *testing.T) {
			f := url.Values{"action": {"pause"}, "client": {"w1"}}
			if _, resp := a.post("/run/"+run+"/"+what, "", f); resp.StatusCode != http.StatusForbidden {
				t.Errorf("no token: status %d, want 403", resp.StatusCode)
			}
			if _, resp := b.post("/run/"+run+"/"+what, b.token, f); resp.StatusCode != http.StatusForbidden {
				t.Errorf("another browser with its own token: status %d, want 403", resp.StatusCode)
			}
		})
	}
	if st := s.run(run).snapshot(report.English).State; st != stWaiting {
		t.Errorf("the run is %s; the refused requests must have left it waiting", st)
	}
}

func TestItListensOnLoopbackUnlessToldOtherwise(t *testing.T) {
	for _, c := range []struct {
		addr  string
		given bool
		ok    bool
		warn  bool
	}{
		{DefaultAddr, false, true, false},
		{"127.0.0.1:0", true, true, false},
		{"localhost:7420", true, true, false},
		{"[::1]:7420", true, true, false},
		{"127.0.0.2:7420", true, true, false},
		{"0.0.0.0:7420", true, true, true},
		{"192.168.1.5:7420", true, true, true},
		{"0.0.0.0:7420", false, false, false},
		{":7420", true, false, false},
		{"7420", true, false, false},
		{"127.0.0.1:", true, false, false},
	} {
		t.Run(c.addr+" (given: "+map[bool]string{true: "yes", false: "no"}[c.given]+")", func(t *testing.T) {
			warn, err := CheckAddr(c.addr, c.given)
			if (err == nil) != c.ok || (warn != "") != c.warn {
				t.Errorf("warning %q, error %v; want ok %v, warning %v", warn, err, c.ok, c.warn)
			}
		})
	}
	t.Run("a request for another host name is refused on loopback", func(t *testing.T) {
		_, hs := testServer(t)
		req, _ := http.NewRequest(http.MethodGet, hs.URL+"/", nil)
		req.Host = "attacker.example:7420"
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMisdirectedRequest {
			t.Errorf("status %d, want 421", resp.StatusCode)
		}
	})
	t.Run("every page sends a strict Content-Security-Policy", func(t *testing.T) {
		_, hs := testServer(t)
		c := newClient(t, hs.URL)
		for _, p := range []string{"/", "/past", "/static/app.js", "/static/timeline.js", "/nothing"} {
			_, resp := c.get(p)
			if resp.Header.Get("Content-Security-Policy") != appCSP {
				t.Errorf("%s: CSP %q", p, resp.Header.Get("Content-Security-Policy"))
			}
		}
	})
}

func TestOneRunPerBrowserAndAFewAtOnce(t *testing.T) {
	needRedis(t)
	s, hs := testServer(t)
	s.o.MaxRuns = 2
	slow := url.Values{"pace": {"0.5"}} // two minutes and more of wall time: still going
	a, b, c := newClient(t, hs.URL), newClient(t, hs.URL), newClient(t, hs.URL)
	if _, resp := a.start("catalogue/gc-pause.yaml", slow); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("a's first run: status %d", resp.StatusCode)
	}
	if body, resp := a.start("catalogue/gc-pause.yaml", slow); resp.StatusCode != http.StatusConflict || !strings.Contains(body, "/run/") {
		t.Errorf("a's second run while its first goes: status %d, want 409 naming the first", resp.StatusCode)
	}
	if _, resp := b.start("catalogue/gc-pause.yaml", slow); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("b's run: status %d", resp.StatusCode)
	}
	if _, resp := c.start("catalogue/gc-pause.yaml", slow); resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("c's run with two going: status %d, want 503", resp.StatusCode)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s.Close(ctx)
	for _, r := range s.runs {
		if r.busy() {
			t.Errorf("run %s still busy after Close", r.id)
		}
	}
}
