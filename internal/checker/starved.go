package checker

import (
	"fmt"
	"slices"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/history"
)

// CauseRefusedLocally: a live client kept trying for a lock that sat free
// in Redis and was refused every time without its acquire reaching any
// node — the lock was held inside its own process (a process-local level
// of a two-level lock left held; BR-35). Client is the starved client; At
// when the key last left Redis before the stretch (freeSince).
const CauseRefusedLocally = "refused-locally"

// refusedLocally gives an unavailable stretch its cause when the account
// shows it: no key of the stretch's key lived on any observed node while
// a refused client kept trying, and none of that client's refused acquires
// in the stretch sent a command to a node. Such a client is starved by
// its own process, not by Redis: the finding is per client, and names it.
func refusedLocally(a *account.Account, out []Anomaly) []Anomaly {
	h := a.H
	if len(h.Header.Observed) == 0 {
		return out
	}
	for i := range out {
		an := &out[i]
		if an.Kind != KindUnavailable || an.Cause != nil {
			continue
		}
		if keyLivedIn(a, an.Key, an.Start, an.End) {
			continue
		}
		var starved []string
		for _, c := range uniqueSorted(an.Clients) {
			if refusedWithoutRedis(h, c, an.Key, an.Start, an.End) {
				starved = append(starved, c)
			}
		}
		if len(starved) != 1 {
			continue // none, or several: the stretch's own words say it
		}
		// The key sat free from when its last life before the stretch
		// left Redis, not from the starved client's first refusal after
		// it (reader 15: "free from t=21.1s" of a key deleted at 20.372).
		free := freeSince(a, an.Key, an.Start)
		an.Cause = &Cause{Kind: CauseRefusedLocally, Client: starved[0], At: free, Observed: true}
		an.Clients = starved
		an.Explain = fmt.Sprintf("%s sat free in Redis from %s to %s (%s), yet %s, alive and trying, was refused every time without its acquire reaching Redis: the lock was held inside its own process",
			an.Key, at(h, free), at(h, an.End), secs(h, an.End-free), starved[0])
	}
	return out
}

// freeSince is when key last left Redis before instant t: the latest end
// of a life of it on an observed node (the final probe's aside) that
// ended by t; t itself when none did.
func freeSince(a *account.Account, key string, t int64) int64 {
	free := int64(-1)
	for _, n := range a.H.Header.Observed {
		for _, k := range a.LivesOf(n, key) {
			if k.Owner != history.ProbeClient && k.End <= t && k.End > free {
				free = k.End
			}
		}
	}
	if free < 0 {
		return t
	}
	return free
}

// keyLivedIn reports whether a life of key existed on any observed node
// at some instant of [from, to) (the final probe's own aside).
func keyLivedIn(a *account.Account, key string, from, to int64) bool {
	for _, n := range a.H.Header.Observed {
		for _, k := range a.LivesOf(n, key) {
			if k.Owner != history.ProbeClient && k.Start < to && k.End > from {
				return true
			}
		}
	}
	return false
}

// refusedWithoutRedis reports whether client made refused acquires of key
// in [from, to) and none of them sent a command to a node (no node event of
// the client within any of their windows).
func refusedWithoutRedis(h history.History, client, key string, from, to int64) bool {
	var wins [][2]int64
	for _, op := range h.Ops {
		if op.Client == client && op.F == history.Acquire && op.Key == key && op.Type == history.Fail &&
			op.Invoke >= from && op.Invoke < to {
			wins = append(wins, [2]int64{op.Invoke - grantSlack, op.Complete + grantSlack})
		}
	}
	if len(wins) == 0 {
		return false
	}
	for _, op := range h.Ops {
		if op.F != history.NodeCmd || op.Client != client {
			continue
		}
		for _, w := range wins {
			if op.Invoke >= w[0] && op.Invoke <= w[1] {
				return false
			}
		}
	}
	return true
}

// grantSlack is how far a node's stamp of a command may fall outside the
// client's window of the operation that sent it.
const grantSlack = int64(2e6)

func uniqueSorted(xs []string) []string {
	out := slices.Clone(xs)
	slices.Sort(out)
	return slices.Compact(out)
}
