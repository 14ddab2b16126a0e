package cluster

// Uncut undoes Cut: the cut toxics are removed and a disabled proxy is
// enabled again on the same address; other toxics (latency, reset) stay.
// Idempotent. Errors: closed link, toxiproxy errors.
func (l *Link) Uncut() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return l.errf("uncut", ErrClosed)
	}
	for _, name := range []string{toxicCutUp, toxicCutDown} {
		if l.toxics[name] {
			if err := l.removeToxic(name); err != nil {
				return l.errf("uncut", err)
			}
		}
	}
	if l.disabled {
		if err := l.enable(); err != nil {
			return l.errf("uncut", err)
		}
	}
	return nil
}

// RemoveLatency undoes AddLatency; other toxics stay. Idempotent.
func (l *Link) RemoveLatency() error { return l.remove("remove latency from", toxicLatency) }

// RemoveReset undoes Reset; other toxics stay. Idempotent.
func (l *Link) RemoveReset() error { return l.remove("remove reset from", toxicResetUp) }

func (l *Link) remove(op, name string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return l.errf(op, ErrClosed)
	}
	if !l.toxics[name] {
		return nil
	}
	if err := l.removeToxic(name); err != nil {
		return l.errf(op, err)
	}
	return nil
}

// LinkByName returns the link between the named client and node, or nil.
func (c *Cluster) LinkByName(client, node string) *Link {
	for _, l := range c.links[client] {
		if l.node.name == node {
			return l
		}
	}
	if c.topo != nil {
		return c.topo.extra[client][node]
	}
	return nil
}

// allLinks is every client link (to masters, replicas and sentinels) and
// every replication link.
func (c *Cluster) allLinks() []*Link {
	out := c.Links()
	if c.topo == nil {
		return out
	}
	for _, client := range c.clients {
		for _, n := range append(append([]*Node(nil), c.topo.replicas...), c.topo.sentinels...) {
			if l := c.topo.extra[client][n.name]; l != nil {
				out = append(out, l)
			}
		}
	}
	for _, r := range c.topo.replicas {
		if l := c.topo.repl[r.name]; l != nil {
			out = append(out, l)
		}
	}
	return out
}

// NodeByName returns the named node (a master, replica or sentinel), or
// nil.
func (c *Cluster) NodeByName(name string) *Node {
	for _, n := range c.everyNode() {
		if n.name == name {
			return n
		}
	}
	return nil
}
