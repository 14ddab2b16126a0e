package workload

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
		Name:    Inventory,
		About:   "check the stock in Redis and sell one item; more sales than stock is an oversell",
		Order:   30,
		Actions: []Action{{Name: ActionReadStock}, {Name: ActionSell, Effect: true}},
	})
}
