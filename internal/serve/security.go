package serve

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/html"
)

// DefaultAddr is where locksim serve listens unless --addr says otherwise:
// the loopback interface only.
const DefaultAddr = "127.0.0.1:7420"

// CheckAddr decides whether locksim serve may listen on addr (host:port).
// A loopback address (127.0.0.0/8, ::1, localhost) is always allowed. Any
// other is allowed only when the user named it explicitly with --addr
// (given), and then comes with a warning to print: the pages let whoever
// reaches them start processes on this machine. An empty host (":7420",
// every interface) is refused even then: it names no address at all.
func CheckAddr(addr string, given bool) (warning string, err error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("--addr %q: want host:port, e.g. %s (%v)", addr, DefaultAddr, err)
	}
	if port == "" {
		return "", fmt.Errorf("--addr %q: no port, e.g. %s", addr, DefaultAddr)
	}
	if host == "" {
		return "", fmt.Errorf("--addr %q would listen on every interface; locksim serve listens on 127.0.0.1 only, unless --addr names another address explicitly (e.g. 0.0.0.0:%s, at your own risk)", addr, port)
	}
	if loopbackHost(host) {
		return "", nil
	}
	if !given {
		return "", fmt.Errorf("refusing to listen on %s: not a loopback address; name it with --addr to do it on purpose", addr)
	}
	return fmt.Sprintf("WARNING: listening on %s, not on loopback: anyone who can reach this address can run scenarios (start redis-server and client processes) on this machine. Use --addr %s unless you mean it.", addr, DefaultAddr), nil
}

// loopbackHost reports whether host is a loopback name or address.
func loopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(strings.Trim(host, "[]"))
	return err == nil && ip.IsLoopback()
}

// sessionCookie names a browser's session; its CSRF token lives on the
// server, keyed by it.
const sessionCookie = "locksim_session"

// maxSessions bounds the sessions kept; the least recently seen goes.
const maxSessions = 1000

type session struct {
	id, token string
	seen      time.Time
}

// sessions are the browsers that have opened a page: each gets a random
// session id (an HttpOnly, SameSite=Strict cookie) and a random CSRF token
// of its own, which every state-changing request must carry.
type sessions struct {
	mu   sync.Mutex
	byID map[string]*session
}

func newSessions() *sessions { return &sessions{byID: map[string]*session{}} }

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("serve: no randomness: " + err.Error()) // crypto/rand never fails on Linux
	}
	return hex.EncodeToString(b)
}

// get returns the request's session, creating one (and setting its
// cookie on w) when it has none or an unknown one.
func (s *sessions) get(w http.ResponseWriter, r *http.Request) *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, err := r.Cookie(sessionCookie); err == nil {
		if ss := s.byID[c.Value]; ss != nil {
			ss.seen = time.Now()
			return ss
		}
	}
	if len(s.byID) >= maxSessions {
		var oldest *session
		for _, ss := range s.byID {
			if oldest == nil || ss.seen.Before(oldest.seen) {
				oldest = ss
			}
		}
		delete(s.byID, oldest.id)
	}
	ss := &session{id: randomHex(32), token: randomHex(32), seen: time.Now()}
	s.byID[ss.id] = ss
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: ss.id, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	return ss
}

// errToken is a state-changing request without its session's token.
var errToken = errors.New("missing or wrong CSRF token")

// check returns the session of a state-changing request that carries its
// session's CSRF token (form field csrf, or header X-CSRF-Token) and, when
// the browser says where it comes from (Origin), comes from this server.
func (s *sessions) check(r *http.Request) (*session, error) {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return nil, errToken
	}
	s.mu.Lock()
	ss := s.byID[c.Value]
	s.mu.Unlock()
	if ss == nil {
		return nil, errToken
	}
	if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host {
		return nil, fmt.Errorf("request from another origin (%s)", o)
	}
	tok := r.Header.Get("X-CSRF-Token")
	if tok == "" {
		tok = r.PostFormValue("csrf")
	}
	if subtle.ConstantTimeCompare([]byte(tok), []byte(ss.token)) != 1 {
		return nil, errToken
	}
	return ss, nil
}

// appCSP is the Content-Security-Policy of the application's own pages:
// nothing inline, nothing from elsewhere; scripts, styles, the live
// run's event stream and the report frames come from this server only.
const appCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
	"frame-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// secure sets the headers every response carries and refuses a request
// whose Host is not this server's loopback name when it listens on
// loopback (a web page elsewhere cannot reach it through DNS rebinding).
func secure(next http.Handler, loopback bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		h.Set("Content-Security-Policy", appCSP)
		if loopback {
			host, _, err := net.SplitHostPort(r.Host)
			if err != nil {
				host = r.Host
			}
			if !loopbackHost(host) {
				http.Error(w, "locksim serve answers to its loopback address only (Host "+r.Host+")", http.StatusMisdirectedRequest)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// reportCSP is the Content-Security-Policy of a stored report's page: its
// own inline scripts and styles, each allowed by its SHA-256 hash and
// nothing else inline; images from this server; shown in this server's
// frames only.
func reportCSP(page []byte) string {
	var scripts, styles []string
	z := html.NewTokenizer(strings.NewReader(string(page)))
	inside := ""
	for {
		switch z.Next() {
		case html.ErrorToken:
			return "default-src 'none'; script-src 'self'" + strings.Join(scripts, "") + "; style-src 'self'" + strings.Join(styles, "") +
				"; img-src 'self' data:; frame-ancestors 'self'; form-action 'none'; base-uri 'none'"
		case html.StartTagToken:
			name, _ := z.TagName()
			inside = string(name)
		case html.TextToken:
			sum := sha256.Sum256(z.Raw())
			hash := " 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
			switch inside {
			case "script":
				scripts = append(scripts, hash)
			case "style":
				styles = append(styles, hash)
			}
			inside = ""
		default:
			inside = ""
		}
	}
}
