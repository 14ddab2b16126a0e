package scenario

import (
	"reflect"
	"testing"
	"time"
)

func TestParseLibraryBlock(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want *Library
	}{
		{"a redsync scenario without a library block has none", "clients: 1\nalgorithm: redsync\nttl: 30s\n", nil},
		{"an empty library block gets one try and redsync's drift factor", "clients: 1\nalgorithm: redsync\nttl: 30s\nlibrary: {}\n",
			&Library{Tries: 1, DriftFactor: ptr(0.01)}},
		{"a redislock library block has no drift factor", "clients: 1\nalgorithm: redislock\nttl: 30s\nlibrary: {tries: 2}\n",
			&Library{Tries: 2}},
		{"every option keeps its value, a zero drift factor included",
			"clients: 1\nalgorithm: redsync\nttl: 30s\nlibrary: {tries: 4, retry_delay: 2s, drift_factor: 0, refresh: 10s}\n",
			&Library{Tries: 4, RetryDelay: Duration(2 * time.Second), DriftFactor: ptr(0.0), Refresh: Duration(10 * time.Second)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse("lib.yaml", []byte(tt.yaml))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(s.Library, tt.want) {
				t.Errorf("library = %+v, want %+v", s.Library, tt.want)
			}
			checkRoundTrip(t, s)
		})
	}
}
