package scenario

// Suggest returns the entry of list closest to s when it is close enough
// to be a likely typo (edit distance at most a third of its length, plus
// one; '-' and '_' alike, case ignored), else "". The CLI's "did you mean"
// for flags uses it, as the scenario parser does for fields.
func Suggest(s string, list []string) string { return suggest(s, list) }
