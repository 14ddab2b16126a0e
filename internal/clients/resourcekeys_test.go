package clients

import "testing"

func TestResourceKeysGiveTheKeyALeaseWasAskedFor(t *testing.T) {
	tests := []struct {
		name        string
		noted       [][2]string // lease key, resource key
		lease       string
		want        string
		wantDerived bool
	}{
		{name: "a lease of a key never noted is its own resource", lease: "k1", want: "k1"},
		{name: "a lease noted under its own key is its own resource", noted: [][2]string{{"k1", "k1"}}, lease: "k1", want: "k1"},
		{name: "a lease of a derived key is the resource it was asked for", noted: [][2]string{{"mutex:k1", "k1"}}, lease: "mutex:k1", want: "k1", wantDerived: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r ResourceKeys
			for _, n := range tt.noted {
				r.Note(n[0], n[1])
			}
			if got := r.Of(Lease{Key: tt.lease}); got != tt.want {
				t.Errorf("Of(%s) = %s, want %s", tt.lease, got, tt.want)
			}
			lk, k, ok := r.Derived()
			if ok != tt.wantDerived || (ok && (lk != tt.lease || k != tt.want)) {
				t.Errorf("Derived() = %s, %s, %v; want %s, %s, %v", lk, k, ok, tt.lease, tt.want, tt.wantDerived)
			}
		})
	}
}
