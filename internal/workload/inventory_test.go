package workload

import (
	"testing"

	"github.com/locksim/locksim/internal/history"
)

// TestASaleIsToldAsWhatItDid: a sale under the lock writes back the stock
// its client computed from its read; a lock-free sale (atomic-lua) is one
// Lua script that decremented the stock on the node, and must not be told
// as writing back (reader 4, finding 3: inventory-atomic-lua's story said
// "w2 sold one item-1 and wrote back stock 1", the wording of the bug).
func TestASaleIsToldAsWhatItDid(t *testing.T) {
	one := int64(1)
	for _, c := range []struct {
		name   string
		traits []string
		read   bool
		want   string
	}{
		{"a lock-free sale is told as the Lua script's decrement on the node", []string{history.TraitLockFree}, false, "n.write.sell.atomic"},
		{"a sale under the lock after a read is told as the stock it wrote back", nil, true, "n.write.sell.read"},
		{"a sale under the lock with no read is told as the stock it wrote back", nil, false, "n.write.sell.num"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := history.History{Header: history.Header{Workload: Inventory, Nodes: []string{"n1"}, Traits: c.traits,
				Params: map[string]int64{history.ParamStock: 2}}}
			tl := newStockTeller(h)
			if c.read {
				two := int64(2)
				tl.Read(history.Op{Client: "w2", F: history.Read, Key: "item-1", Value: history.Value{Action: ActionReadStock, Num: &two}})
			}
			w, ok := tl.Write(history.Op{Client: "w2", F: history.Write, Key: "item-1", Type: history.OK, Value: history.Value{Action: ActionSell, Num: &one}}, "")
			if !ok || w.Key != c.want {
				t.Errorf("the sale is told by %q (%v), want %q", w.Key, ok, c.want)
			}
			if _, ok := inventoryWords["vi"][w.Key]; !ok {
				t.Errorf("%q has no Vietnamese words", w.Key)
			}
		})
	}
}
