package report

import "github.com/locksim/locksim/internal/history"

// cutWay is which way a cut-links step lost the traffic on its links,
// for its words: "replies" (the nodes' replies to the clients: the
// clients' commands still reached the nodes and ran), "requests" (the
// clients' commands: a toxic on the upstream stream), "" both ways
// (reader 15: "w1 cannot reach n1" of a replies-only cut, whose release
// ran on n1).
func cutWay(st history.FaultStep) string {
	switch {
	case st.Direction == "replies" || st.Stream == "downstream":
		return "replies"
	case st.Stream == "upstream":
		return "requests"
	}
	return ""
}

// cutKey is message key msg of a cut-links step, by its direction
// (cutWay): msg.replies, msg.requests, or msg itself.
func cutKey(msg string, st history.FaultStep) string {
	if w := cutWay(st); w != "" {
		return msg + "." + w
	}
	return msg
}
