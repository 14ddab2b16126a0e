package faults

// ThawChecks is the number of PointThen checks waiting for g's thaw.
func ThawChecks(g *Gate) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.atThaw)
}
