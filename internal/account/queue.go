package account

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/locksim/locksim/internal/claim"
	"github.com/locksim/locksim/internal/history"
)

// entry is one element of a waiter list as its node's commands built it.
type entry struct {
	value, by string
	at        int64
	rec       int
}

// queueHeadClaim states, for acquire (or probe) i refused while no node
// held its lock key, whose entry headed the waiter list its script read:
// the list whose head (LINDEX q 0) the client's commands read on a node
// while the acquire ran, replayed from that node's recorded pushes, pops,
// LREMs and DELs of it before the read (a fair lock's queue, after
// Redisson's RFairLock: only the head may take a free lock). False when no
// such read was recorded, the list was empty or headed by the client's own
// entry, or the lock key was not free.
func (a *Account) queueHeadClaim(i int) (claim.Claim, bool) {
	op := a.H.Ops[i]
	if !a.KeyFreeAt(op.Key, op.Invoke, op.Complete) {
		return claim.Claim{}, false
	}
	read := -1
	for j, o := range a.H.Ops {
		if o.F == history.NodeCmd && o.Client == op.Client && o.Invoke >= op.Invoke && o.Invoke <= op.Complete &&
			len(o.Value.Cmd) == 3 && strings.EqualFold(o.Value.Cmd[0], "lindex") && o.Value.Cmd[2] == "0" {
			read = j
			break
		}
	}
	if read < 0 {
		return claim.Claim{}, false
	}
	r := a.H.Ops[read]
	q, node := r.Value.Cmd[1], r.Value.Node
	list := replayList(a.H, node, q, r)
	if len(list) == 0 || list[0].by == op.Client {
		return claim.Claim{}, false
	}
	head := list[0]
	return claim.Claim{Kind: claim.QueueHead, Client: op.Client, Key: op.Key, What: q, Node: node, Token: head.value,
		By: head.by, At: head.at, Start: op.Invoke, End: op.Complete, Records: []int{i, head.rec}}, true
}

// replayList is list key q on node just before command before ran, from
// every recorded RPUSH, LPUSH, LPOP, RPOP, LREM, DEL and UNLINK of it (in
// the node's time order).
func replayList(h history.History, node, q string, before history.Op) []entry {
	var cmds []history.Op
	for _, o := range h.Ops {
		if o.F == history.NodeCmd && o.Value.Node == node && len(o.Value.Cmd) >= 2 && o.Value.Cmd[1] == q &&
			(o.Invoke < before.Invoke || o.Invoke == before.Invoke && o.Index < before.Index) {
			cmds = append(cmds, o)
		}
	}
	slices.SortStableFunc(cmds, func(x, y history.Op) int {
		return cmp.Or(cmp.Compare(x.Invoke, y.Invoke), cmp.Compare(x.Index, y.Index))
	})
	var list []entry
	for _, o := range cmds {
		args := o.Value.Cmd[2:]
		switch strings.ToLower(o.Value.Cmd[0]) {
		case "rpush":
			for _, v := range args {
				list = append(list, entry{v, o.Client, o.Invoke, o.Index})
			}
		case "lpush":
			for _, v := range args {
				list = append([]entry{{v, o.Client, o.Invoke, o.Index}}, list...)
			}
		case "lpop":
			list = list[min(popCount(args), len(list)):]
		case "rpop":
			list = list[:len(list)-min(popCount(args), len(list))]
		case "lrem":
			if len(args) == 2 {
				list = lrem(list, args[0], args[1])
			}
		case "del", "unlink":
			list = nil
		}
	}
	return list
}

// popCount is an LPOP's or RPOP's count argument (1 when none).
func popCount(args []string) int {
	if len(args) > 0 {
		if n, err := strconv.Atoi(args[0]); err == nil && n >= 0 {
			return n
		}
	}
	return 1
}

// lrem removes value from list as LREM key count value does: count > 0
// from the head, < 0 from the tail, 0 every one.
func lrem(list []entry, count, value string) []entry {
	n, err := strconv.Atoi(count)
	if err != nil {
		return list
	}
	keep := make([]bool, len(list))
	removed := 0
	for k := range list {
		j := k
		if n < 0 {
			j = len(list) - 1 - k
		}
		keep[j] = list[j].value != value || (n != 0 && removed >= max(n, -n))
		if !keep[j] {
			removed++
		}
	}
	var out []entry
	for j, e := range list {
		if keep[j] {
			out = append(out, e)
		}
	}
	return out
}
