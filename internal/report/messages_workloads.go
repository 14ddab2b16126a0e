package report

import "github.com/locksim/locksim/internal/workload"

// Each workload brings its own words (workload.Kind.Words): the names of
// its actions and its resource, what its reads return, the sentences its
// teller names. They join the tables here, after messages_pages.go's, so
// that nothing overrides them; a key a workload shares with the report's
// tables or another workload is a programming error, found at init.
func init() {
	for _, k := range workload.Kinds() {
		for code, table := range k.Words {
			lang := Lang(code)
			if messages[lang] == nil {
				panic("report: workload " + k.Name + " has words in " + code + ", a language the report does not write")
			}
			for key, v := range table {
				if _, dup := messages[lang][key]; dup {
					panic("report: message " + key + " of workload " + k.Name + " is in the report's tables or another workload's")
				}
				messages[lang][key] = v
			}
		}
	}
}
