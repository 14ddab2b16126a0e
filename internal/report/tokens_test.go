package report

import (
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/history"
)

// A process client's tokens ("ADDED:<nanoseconds>@w1") share their first
// 16 characters; w3's release rewrote its key with a value no acquire
// recorded (unlock-deletes-next-lock, seed 4).
const addedTokens = `{"format":"locksim-history","version":2,"scenario":"unlock-deletes-next-lock","seed":4,"time_scale":25,"backend":"local","algorithm":"set-xx-unlock","workload":"payment","clients":["w1","w2","w3"],"nodes":["n1"],"observed":["n1"],"ops":8}
{"index":0,"process":0,"client":"w1","f":"acquire","key":"invoice-1","value":{"token":"ADDED:1796363012503232520@w1","ttl_ns":1200000000,"nodes":["n1"]},"invoke_ns":14617986,"complete_ns":15030688,"type":"ok"}
{"index":1,"process":-2,"client":"w1","f":"node-cmd","key":"invoice-1","value":{"node":"n1","cmd":["set","invoice-1","ADDED:1796363012503232520@w1","px","1200","nx"]},"invoke_ns":14884392,"complete_ns":14884392,"type":"ok"}
{"index":2,"process":1,"client":"w2","f":"acquire","key":"invoice-1","value":{"token":"ADDED:1796363013743619817@w2","ttl_ns":1200000000,"nodes":["n1"]},"invoke_ns":1254968844,"complete_ns":1256063767,"type":"ok"}
{"index":3,"process":-2,"client":"w2","f":"node-cmd","key":"invoice-1","value":{"node":"n1","cmd":["set","invoice-1","ADDED:1796363013743619817@w2","px","1200","nx"]},"invoke_ns":1255477392,"complete_ns":1255477392,"type":"ok"}
{"index":4,"process":2,"client":"w3","f":"acquire","key":"invoice-1","value":{"token":"ADDED:1796363014144328363@w3","ttl_ns":1200000000,"nodes":["n1"]},"invoke_ns":1655706204,"complete_ns":1656190250,"type":"ok"}
{"index":5,"process":-2,"client":"w3","f":"node-cmd","key":"invoice-1","value":{"node":"n1","cmd":["set","invoice-1","ADDED:1796363014144328363@w3","px","1200","nx"]},"invoke_ns":1656026392,"complete_ns":1656026392,"type":"ok"}
{"index":6,"process":2,"client":"w3","f":"release","key":"invoice-1","value":{"token":"ADDED:1796363014144328363@w3","nodes":["n1"],"removed":true},"invoke_ns":1660433483,"complete_ns":1660810698,"type":"ok"}
{"index":7,"process":-2,"client":"w3","f":"node-cmd","key":"invoice-1","value":{"node":"n1","cmd":["set","invoice-1","ADDED:1796363014149049552@w3","px","395","xx"]},"invoke_ns":1660660401,"complete_ns":1660660401,"type":"ok"}
`

// TestDistinctTokensStayDistinctWherePrinted: every place that shortens
// an owner token (index.html, history.html's tooltips, the timeline's key
// labels) shortens it one way, derived once per run, so distinct values
// stay distinct; history.html wrote all of unlock-deletes-next-lock's as
// "ADDED:17", and the timeline labelled w3's rewritten key "w3 owner
// ADDED:17" (reader 10, finding 2). Ordinary random tokens keep 8 hex.
func TestDistinctTokensStayDistinctWherePrinted(t *testing.T) {
	h, err := history.Decode(strings.NewReader(addedTokens))
	if err != nil {
		t.Fatal(err)
	}
	m := newModel(h, nil)
	vals := map[string]bool{}
	for _, o := range h.Ops {
		if o.Value.Token != "" {
			vals[o.Value.Token] = true
		}
	}
	for _, k := range m.a.Keys() {
		vals[k.Value] = true
	}
	if !vals["ADDED:1796363014149049552@w3"] {
		t.Fatalf("the account has no rewritten value: %v", vals)
	}
	seen := map[string]string{}
	for v := range vals {
		s := m.shortToken(v)
		if other, dup := seen[s]; dup {
			t.Errorf("%q and %q both written %q", v, other, s)
		}
		seen[s] = v
	}
	for _, lang := range Languages() {
		words := map[string]bool{}
		for _, o := range h.Ops {
			if o.F == history.Acquire {
				w := opWords(lang, m, o)
				if words[w] {
					t.Errorf("%s: two acquires read %q", lang, w)
				}
				words[w] = true
			}
		}
	}
	for _, k := range m.a.Keys() {
		if lbl := m.tokenLabel(English, lease{Token: m.shortToken(k.Value)}); strings.HasSuffix(lbl, "ADDED:17") {
			t.Errorf("key label %q", lbl)
		}
	}

	ord := history.History{Header: h.Header, Ops: []history.Op{
		{Process: 0, Client: "w1", F: history.Acquire, Key: "k", Type: history.OK, Value: history.Value{Token: "2e5a3c5a9f0b41d2a7c3e1f4b6d8a0c2"}},
		{Process: 1, Client: "w2", F: history.Acquire, Key: "k", Type: history.OK, Value: history.Value{Token: "099978c1aa3b4c5d6e7f8091a2b3c4d5"}},
	}}
	om := newModel(ord, nil)
	for _, tok := range []string{"2e5a3c5a9f0b41d2a7c3e1f4b6d8a0c2", "099978c1aa3b4c5d6e7f8091a2b3c4d5"} {
		if s := om.shortToken(tok); s != tok[:8] {
			t.Errorf("ordinary token %q written %q, want %q", tok, s, tok[:8])
		}
	}
}
