package clients

import "sync"

// ResourceKeys remembers which resource key each granted lease was asked
// for, for a lock that derives a Redis key of its own from the resource's
// (redis-semaphore's "mutex:<key>"): Lease.Key is then not the key asked
// for. Safe for concurrent use; the zero value remembers nothing.
type ResourceKeys struct {
	mu sync.Mutex
	m  map[string]string // lease key → resource key
}

// Note records that the lease whose key is leaseKey was asked for the
// resource key.
func (r *ResourceKeys) Note(leaseKey, key string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil {
		r.m = map[string]string{}
	}
	r.m[leaseKey] = key
}

// Of is the resource key lease l was asked for: the one noted for its key,
// else its key itself.
func (r *ResourceKeys) Of(l Lease) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if k, ok := r.m[l.Key]; ok {
		return k
	}
	return l.Key
}

// Derived is a lease key noted for a resource key other than itself and
// that resource key, or ok false when every lease key noted is its
// resource's own.
func (r *ResourceKeys) Derived() (leaseKey, key string, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for lk, k := range r.m {
		if lk != k {
			return lk, k, true
		}
	}
	return "", "", false
}
