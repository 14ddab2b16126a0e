package account

import (
	"cmp"
	"slices"

	"github.com/locksim/locksim/internal/history"
)

// Resurrection is a holder's lock key set again with the holder's own
// owner token after that key had ended on its node (expired, removed,
// lost with the node) and after another client had been granted the key
// there in between: a renewal or extend that re-creates a missing key and
// calls that a success (redis-semaphore #175, fixed in 5.3.1; redlock-rb
// #36, BR-08). Judged on the node's own record: both lives are observed.
type Resurrection struct {
	// Holder is the client whose token came back; Other the client
	// granted the key in between.
	Holder, Other string
	// Before is the holder's life of the key that ended; After the life
	// its token started again (After.Set: the node event that set it).
	Before, After KeyLife
	// Between is the other client's grant of the key in between, and
	// BetweenLife the key life on this node that backed it.
	Between     Grant
	BetweenLife KeyLife
}

// Resurrections returns every resurrection of a lock key, ordered by when
// the token came back (After.Start).
func (a *Account) Resurrections() []Resurrection {
	a.derive()
	a.resurrect.Do(a.deriveResurrections)
	return a.resurrections
}

func (a *Account) deriveResurrections() {
	for _, after := range a.keys {
		if !after.Observed || after.Grant >= 0 || after.Value == "" || after.Set < 0 {
			continue // a life some acquire created is a grant, not a comeback
		}
		lives := a.byKey[nk(after.Node, after.Key)]
		var before *KeyLife
		for _, i := range lives {
			k := &a.keys[i]
			if k.Observed && k.Value == after.Value && k.End <= after.Start && k.Start < after.Start && k.Ended.Kind != EndHeld {
				before = k // the latest earlier life of the same token
			}
		}
		if before == nil {
			continue
		}
		holder := before.Owner
		if before.Grant >= 0 {
			holder = a.H.Ops[before.Grant].Client
		}
		r, ok := a.grantedBetween(after, *before, holder)
		if !ok {
			continue
		}
		r.Holder, r.Before, r.After = holder, *before, after
		a.resurrections = append(a.resurrections, r)
	}
	slices.SortStableFunc(a.resurrections, func(x, y Resurrection) int {
		return cmp.Compare(x.After.Start, y.After.Start)
	})
}

// grantedBetween finds another client's grant backed by a life of after's
// key on its node that started between before's end and after's start.
func (a *Account) grantedBetween(after, before KeyLife, holder string) (Resurrection, bool) {
	for _, g := range a.grantList {
		if g.Client == holder || g.Client == "" {
			continue
		}
		for _, l := range g.Lives {
			if l.Node == after.Node && l.Key == after.Key && l.Start >= before.End && l.Start <= after.Start {
				return Resurrection{Other: g.Client, Between: g, BetweenLife: l}, true
			}
		}
	}
	return Resurrection{}, false
}

// LockKeysOf is every Redis key locked for the resource key: the key
// itself, then each key an algorithm derived for it (Value.LockKey of an
// ok acquire or probe of the key), sorted.
func (a *Account) LockKeysOf(key string) []string {
	a.lockKeysOnce.Do(func() {
		a.lockKeys = map[string][]string{}
		for i := range a.H.Ops {
			o := &a.H.Ops[i]
			if (o.F == history.Acquire || o.F == history.Probe) && o.Value.LockKey != "" && !slices.Contains(a.lockKeys[o.Key], o.Value.LockKey) {
				a.lockKeys[o.Key] = append(a.lockKeys[o.Key], o.Value.LockKey)
			}
		}
		for k := range a.lockKeys {
			slices.Sort(a.lockKeys[k])
		}
	})
	return append([]string{key}, a.lockKeys[key]...)
}
