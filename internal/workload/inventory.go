package workload

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/internal/account"
	"github.com/locksim/locksim/internal/clients"
	"github.com/locksim/locksim/internal/finding"
	"github.com/locksim/locksim/internal/history"
	"github.com/locksim/locksim/lock"
)

// Inventory checks an item's stock in Redis and sells one (lock-theory
// S18): more sales than stock is an oversell.
const Inventory = "inventory"

// The inventory workload's actions.
const (
	ActionReadStock = "read-stock" // read, Num = stock read
	ActionSell      = "sell"       // ok = one item shipped, Num = stock written back
)

func init() {
	Register(Kind{
		Name:     Inventory,
		About:    "check the stock in Redis and sell one item; more sales than stock is an oversell",
		Order:    30,
		Actions:  []Action{{Name: ActionReadStock}, {Name: ActionSell, Effect: true}},
		Object:   "item",
		Keyed:    true,
		Fields:   []string{"stock"},
		New:      func() Workload { return &inventory{} },
		Model:    stockModel,
		Question: history.AnomalyOversell,
		Effects:  []Rule{saleLostUpdates, oversells},
		Words:    inventoryWords,
		Tell:     newStockTeller,
		// A plain decrement from a stale decision still oversells: the
		// check-and-decrement script is the fix.
		Unadvised: []string{"fix.incr"},
	})
}

// inventory is the inventory workload's own fields.
type inventory struct {
	// Stock is the items in stock at time zero, per item. Default 1.
	Stock int `yaml:"stock,omitempty"`
}

func (w *inventory) Decode(d Decoder) {
	w.Stock, _ = d.Int("stock", 1, 1_000_000, "items in stock at time zero")
	if w.Stock == 0 {
		w.Stock = 1
	}
}

func (w *inventory) Params(func(time.Duration) int64) map[string]int64 {
	return map[string]int64{history.ParamStock: int64(w.Stock)}
}

func (w *inventory) Start(env Env) Run { return &stock{w: w, env: env} }

// stockKey is the Redis key holding an item's stock.
func stockKey(item string) string { return "stock:" + item }

// stock is a run's stock: in Redis, on n1.
type stock struct {
	w   *inventory
	env Env
}

// Setup sets every item's stock on n1 directly (not through any client's
// link).
func (r *stock) Setup(ctx context.Context) error {
	k, _ := Lookup(Inventory)
	return r.env.Admin(ctx, func(n1 redis.Cmdable) error {
		for item := range k.Objects(r.env.Keys()) {
			sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			err := n1.Set(sctx, stockKey(item), r.w.Stock, 0).Err()
			cancel()
			if err != nil {
				return fmt.Errorf("set the stock of %s on n1: %w", item, err)
			}
		}
		return nil
	})
}

func (r *stock) Work(ctx context.Context, c Client) {
	eachObject(ctx, c, func(key string) Body { return r.buy(ctx, c, key) })
}

// buy is the sale: under the lock, read the stock from Redis, and if there
// is any, do the job and write the stock back one lower. Lock-free
// (atomic-lua), one Lua script checks and decrements.
func (r *stock) buy(ctx context.Context, c Client, key string) Body {
	node := c.Node()
	sk := stockKey(key)
	return func(l lock.Lease) (bool, error) {
		if c.LockFree() {
			if err := c.Job(ctx, l); err != nil {
				return false, err
			}
			if err := c.BeforeWrite(ctx, l); err != nil {
				return false, err
			}
			c.Write(key, ActionSell, Proof{}, func(note *history.Value) (Refusal, error) {
				octx, cancel := context.WithTimeout(ctx, c.OpTimeout())
				defer cancel()
				left, err := clients.AtomicDecrement(octx, node, sk)
				switch {
				case errors.Is(err, clients.ErrOutOfStock):
					return Refusal{Why: history.RefusalOutOfStock}, nil
				case err != nil:
					return Refusal{}, err
				}
				note.Num = &left
				return Refusal{}, nil
			})
			return true, nil
		}
		n, ok := c.ReadNum(ctx, key, ActionReadStock, func(ctx context.Context) (int64, error) {
			octx, cancel := context.WithTimeout(ctx, c.OpTimeout())
			defer cancel()
			return node.Cmd.Get(octx, sk).Int64()
		})
		if !ok {
			return false, ctx.Err()
		}
		if n <= 0 {
			return true, nil
		}
		if err := c.Job(ctx, l); err != nil {
			return false, err
		}
		if err := c.BeforeWrite(ctx, l); err != nil {
			return false, err
		}
		c.Write(key, ActionSell, ProofOf(l), func(note *history.Value) (Refusal, error) {
			octx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.OpTimeout())
			defer cancel()
			if err := node.Cmd.Set(octx, sk, n-1, 0).Err(); err != nil {
				return Refusal{}, err
			}
			left := n - 1
			note.Num = &left
			return Refusal{}, nil
		})
		return true, nil
	}
}

// stockModel: the stock starts at Header.Params["stock"] (else it is
// known from the first read or sale); a read of the stock must return it;
// an accepted sale needs stock left and, when it gives the stock it wrote
// back, stock − 1, then takes one; a sale refused as out of stock is legal
// only when none is left.
var stockModel = Model{
	Init: func(params map[string]int64) any {
		v, ok := params[history.ParamStock]
		return knownValue{v, ok}
	},
	Read: func(s any, in Input, out Output) (bool, any) {
		if in.Action != ActionReadStock {
			return true, s
		}
		return readValue(s, out)
	},
	Apply: func(s any, in Input, _ Output) (bool, any) {
		v := s.(knownValue)
		if in.Action != ActionSell {
			return true, v
		}
		switch {
		case v.Known && (v.V <= 0 || (in.HasNum && in.Num != v.V-1)):
			return false, v
		case v.Known:
			v.V--
		case in.HasNum:
			v = knownValue{in.Num, true}
		}
		return true, v
	},
	Refused: func(s any, in Input, out Output) bool {
		if v := s.(knownValue); out.Refusal == history.RefusalOutOfStock && in.Action == ActionSell && v.Known {
			return v.V <= 0
		}
		return true
	},
	Hash:     hashValue,
	Describe: describeValue("stock"),
}

// saleLostUpdates is the lost-update rule of the stock (S18): an accepted
// sell whose Num (the stock written back) is ≥ the previous accepted
// sell's (two sales wrote back the same stock); two sales that overlap in
// time may have been applied in either order, so between them only an
// equal value counts (regressed).
func saleLostUpdates(a *account.Account, ix *Index) Finding {
	h := a.H
	var f Finding
	by, keys := ix.ByKey(ActionSell)
	for _, k := range keys {
		f.Anomalies = append(f.Anomalies, regressions(h, k, withNum(h, by[k]), -1, func(prev, cur history.Op, lost []history.Op) string {
			// Its value undid every sale it wiped out: they went
			// unsubtracted.
			return fmt.Sprintf("%s's sale of %s wrote back stock %d at %s, after %s's sale had already written back %d at %s; %s not subtracted (%s)",
				cur.Client, k, *cur.Value.Num, finding.At(h, cur.Complete), prev.Client, *prev.Value.Num, finding.At(h, prev.Complete), finding.Plural(len(lost), "sale was", "sales were"), lostList(h, lost))
		})...)
	}
	return summed(f, "lost update", "lost updates", "")
}

// oversells is the oversell rule (S18): more accepted sells on one item
// key than Header.Params["stock"]; without that parameter, an accepted
// sell that wrote back a negative stock.
func oversells(a *account.Account, ix *Index) Finding {
	h := a.H
	var f Finding
	by, keys := ix.ByKey(ActionSell)
	stock, haveStock := h.Header.Params[history.ParamStock]
	total := 0
	for _, k := range keys {
		ss := by[k]
		total += len(ss)
		if haveStock {
			if int64(len(ss)) <= stock {
				continue
			}
			extra := ss[stock:]
			var clients []string
			var ops []int
			for _, i := range extra {
				clients = append(clients, h.Ops[i].Client)
				ops = append(ops, h.Ops[i].Index)
			}
			start := h.Ops[ss[0]].Complete
			if stock > 0 {
				start = h.Ops[ss[stock-1]].Complete
			}
			first := h.Ops[extra[0]]
			explain := fmt.Sprintf("the shop sold %d items of %s with only %d in stock; %s's sale at %s was one too many",
				len(ss), k, stock, first.Client, finding.At(h, first.Complete))
			f.Anomalies = append(f.Anomalies, finding.New(h, history.AnomalyOversell, k, clients, start, h.Ops[extra[len(extra)-1]].Complete, explain, ops...))
			continue
		}
		for _, i := range ss {
			op := h.Ops[i]
			if op.Value.Num != nil && *op.Value.Num < 0 {
				explain := fmt.Sprintf("%s's sale of %s at %s left the stock at %d; stock must never go below 0",
					op.Client, k, finding.At(h, op.Complete), *op.Value.Num)
				f.Anomalies = append(f.Anomalies, finding.New(h, history.AnomalyOversell, k, []string{op.Client}, op.Complete, op.Complete, explain, op.Index))
				break
			}
		}
	}
	switch {
	case total == 0:
	case len(f.Anomalies) > 0:
		f.Summary = fmt.Sprintf("%s oversold", finding.Plural(len(f.Anomalies), "item", "items"))
	case haveStock:
		f.Summary = fmt.Sprintf("%s on %s, none beyond the stock of %d", finding.Plural(total, "accepted sale", "accepted sales"), finding.Plural(len(keys), "item", "items"), stock)
	default:
		f.Summary = fmt.Sprintf("%s, stock never below 0 (no stock parameter)", finding.Plural(total, "accepted sale", "accepted sales"))
	}
	return f
}

// inventoryWords are the inventory workload's sentences and words in the report's
// languages (package report renders them; verbs and argument order as
// the comments say).
var inventoryWords = map[string]map[string]string{
	"en": {
		"question.inventory":      "Will more be sold than the stock holds?",                                                                             // locksim serve asks it before a run
		"n.read.stock":            "%s read the stock of %s: %d.",                                                                                        // client, key, n
		"n.write.sell.stale":      "%[1]s wrote back stock %[3]d for %[2]s, computed from its own read of %[4]d — but the stock was already %[5]d%[6]s.", // client, key, written, read, real, token suffix
		"n.write.sell.read":       "%[1]s sold one %[2]s: it wrote back stock %[3]d, computed from its read of %[4]d%[5]s.",                              // client, key, written, read, token suffix
		"n.write.sell.num":        "%[1]s sold one %[2]s and wrote back stock %[3]d%[4]s.",                                                               // client, key, written, token suffix
		"n.write.sell.plain":      "%s sold one %s%s.",                                                                                                   // client, key, token suffix
		"n.write.sell.atomic":     "%[1]s sold one %[2]s: one Lua script decremented %[3]s on %[4]s to %[5]d%[6]s.",                                      // client, key, stock key, node, stock left, token suffix
		"wl.inventory":            "stock",
		"wl.write.inventory":      "sale",
		"wl.resource.inventory":   "the stock",
		"lane.resource.inventory": "stock",
		"act.sell":                "sale",
		"tip.num.sell":            "Stock left: %d.", // the stock the sale wrote back
		"p.act.sell":              "sold",
	},
	"vi": {
		"question.inventory":      "Có bán quá tồn kho không?",
		"n.read.stock":            "%s đọc tồn kho của %s: %d.",
		"n.write.sell.stale":      "%[1]s ghi lại tồn kho %[3]d cho %[2]s, tính từ lần đọc %[4]d của chính nó — nhưng lúc đó tồn kho đã là %[5]d%[6]s.",
		"n.write.sell.read":       "%[1]s bán một %[2]s: nó ghi lại tồn kho %[3]d, tính từ lần đọc %[4]d%[5]s.",
		"n.write.sell.num":        "%[1]s bán một %[2]s và ghi lại tồn kho %[3]d%[4]s.",
		"n.write.sell.plain":      "%s bán một %s%s.",
		"n.write.sell.atomic":     "%[1]s bán một %[2]s: một script Lua giảm %[3]s trên %[4]s xuống %[5]d%[6]s.",
		"wl.inventory":            "tồn kho",
		"wl.write.inventory":      "lần bán",
		"wl.resource.inventory":   "tồn kho",
		"lane.resource.inventory": "tồn kho",
		"act.sell":                "bán hàng",
		"tip.num.sell":            "Tồn kho còn lại: %d.",
		"p.act.sell":              "đã bán",
	},
}

// stockTeller tells the stock's reads and sales. A sale writes back the
// stock its client computed from its own read; the stock the resource
// held just before is the last accepted sale's (or the initial stock).
type stockTeller struct {
	h        history.History
	stock    map[string]int64    // the last accepted sale's stock, per item
	lastRead map[[2]string]int64 // each client's last stock read of an item
}

func newStockTeller(h history.History) Teller {
	return &stockTeller{h: h, stock: map[string]int64{}, lastRead: map[[2]string]int64{}}
}

func (t *stockTeller) Read(o history.Op) (Words, bool) {
	if o.Value.Action != ActionReadStock {
		return Words{}, false
	}
	t.lastRead[[2]string{o.Client, o.Key}] = *o.Value.Num
	return Say("n.read.stock", o.Client, o.Key, *o.Value.Num), true
}

func (t *stockTeller) Write(o history.Op, tok string) (Words, bool) {
	if o.Value.Action != ActionSell {
		return Words{}, false
	}
	before, known := t.stock[o.Key]
	if !known {
		before, known = t.h.Header.Params[history.ParamStock]
	}
	read, haveRead := t.lastRead[[2]string{o.Client, o.Key}]
	var w Words
	switch {
	case o.Value.Num != nil && slices.Contains(t.h.Header.Traits, history.TraitLockFree) && len(t.h.Header.Nodes) > 0:
		// One Lua script checked and decremented the stock on the node: the
		// client read nothing and wrote nothing back (reader 4, finding 3).
		w = Say("n.write.sell.atomic", o.Client, o.Key, stockKey(o.Key), t.h.Header.Nodes[0], *o.Value.Num, tok)
	case o.Value.Num != nil && haveRead && known && before != read:
		w = Say("n.write.sell.stale", o.Client, o.Key, *o.Value.Num, read, before, tok)
	case o.Value.Num != nil && haveRead:
		w = Say("n.write.sell.read", o.Client, o.Key, *o.Value.Num, read, tok)
	case o.Value.Num != nil:
		w = Say("n.write.sell.num", o.Client, o.Key, *o.Value.Num, tok)
	default:
		w = Say("n.write.sell.plain", o.Client, o.Key, tok)
	}
	if o.Value.Num != nil {
		t.stock[o.Key] = *o.Value.Num
	}
	return w, true
}
