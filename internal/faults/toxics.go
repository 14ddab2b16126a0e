package faults

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/locksim/locksim/internal/history"
)

// The rest of toxiproxy's toxics, each a kind of its own on chosen
// client→node links (issue 17), with toxiproxy's attributes in scenario
// time and its own defaults:
//
//   - bandwidth: at most rate KB/s (scenario time: the wall rate is
//     rate × time_scale, so a transfer takes the scenario time it would);
//   - slicer: every chunk cut into pieces of average_size ± size_variation
//     bytes, chunk_delay between them;
//   - limit-data: the connection is closed once bytes have gone through;
//   - slow-close: a close reaches the other side close_delay late;
//   - timeout: nothing goes through and, after timeout, the connection
//     is closed (a partition is the timeout toxic with timeout 0).
//
// Every toxic kind, latency and reset take stream (upstream: the requests;
// downstream: the replies, toxiproxy's default; both) and toxicity (the
// probability a connection gets the toxic, toxiproxy's own rule, drawn
// from the run's seed: cluster/toxics.go).

// toxicKind is one toxiproxy toxic as a fault kind.
type toxicKind struct {
	name, typ, about string
	effect           string
	fields           []string
	decode           func(d Decoder, f *toxicFault)
	attrs            func(r *Resolver, f *toxicFault) map[string]int64
	// encode sets the kind's own attributes from the toxic's (the
	// inverse of attrs).
	encode func(e Encoder, f *toxicFault, a map[string]int64)
}

// toxicFault is the attributes of every toxic kind; a kind decodes only
// its own.
type toxicFault struct {
	k *toxicKind

	onLinks       `yaml:",inline"`
	Stream        string        `yaml:"stream,omitempty"`
	Toxicity      float64       `yaml:"toxicity,omitempty"`
	Rate          int64         `yaml:"rate,omitempty"`
	AverageSize   int64         `yaml:"average_size,omitempty"`
	SizeVariation int64         `yaml:"size_variation,omitempty"`
	ChunkDelay    time.Duration `yaml:"chunk_delay,omitempty"`
	Bytes         int64         `yaml:"bytes,omitempty"`
	CloseDelay    time.Duration `yaml:"close_delay,omitempty"`
	Timeout       time.Duration `yaml:"timeout,omitempty"`
}

// Streams a toxic can sit on.
const (
	StreamUpstream   = "upstream"
	StreamDownstream = "downstream"
	StreamBoth       = "both"
)

// Streams lists the stream values.
func Streams() []string { return []string{StreamUpstream, StreamDownstream, StreamBoth} }

var toxicKinds = []*toxicKind{
	{name: "bandwidth", typ: "bandwidth", effect: history.EffectSlowLinks,
		about:  "limit chosen links to rate KB/s, scenario time (toxiproxy bandwidth toxic)",
		fields: []string{"rate"},
		decode: func(d Decoder, f *toxicFault) {
			f.Rate = requiredInt(d, "rate", 1, `the bandwidth in KB/s, e.g. "rate: 10"`)
		},
		attrs: func(r *Resolver, f *toxicFault) map[string]int64 {
			return map[string]int64{"rate": max(1, int64(math.Round(float64(f.Rate)*r.Scale)))}
		},
		encode: func(e Encoder, f *toxicFault, a map[string]int64) {
			f.Rate = max(1, int64(math.Round(float64(a["rate"])/e.Scale)))
		}},
	{name: "slicer", typ: "slicer", effect: history.EffectSlowLinks,
		about:  "cut every chunk on chosen links into average_size ± size_variation bytes, chunk_delay apart (toxiproxy slicer toxic)",
		fields: []string{"average_size", "size_variation", "chunk_delay"},
		decode: func(d Decoder, f *toxicFault) {
			f.AverageSize = requiredInt(d, "average_size", 1, `the slice size in bytes, e.g. "average_size: 8"`)
			f.SizeVariation = optionalInt(d, "size_variation", 0)
			if f.AverageSize > 0 && f.SizeVariation >= f.AverageSize {
				d.Errorf("size_variation", "must be smaller than average_size (%d)", f.AverageSize)
			}
			f.ChunkDelay, _ = d.Duration("chunk_delay", NonNegative)
		},
		attrs: func(r *Resolver, f *toxicFault) map[string]int64 {
			return map[string]int64{"average_size": f.AverageSize, "size_variation": f.SizeVariation,
				"delay": r.Wall(f.ChunkDelay) / int64(time.Microsecond)}
		},
		encode: func(e Encoder, f *toxicFault, a map[string]int64) {
			f.AverageSize, f.SizeVariation = a["average_size"], a["size_variation"]
			f.ChunkDelay = e.Scen(a["delay"] * int64(time.Microsecond))
		}},
	{name: "limit-data", typ: "limit_data", effect: history.EffectCutLinks,
		about:  "close the connections on chosen links once bytes have gone through (toxiproxy limit_data toxic)",
		fields: []string{"bytes"},
		decode: func(d Decoder, f *toxicFault) {
			f.Bytes = requiredInt(d, "bytes", 1, `how many bytes pass before the close, e.g. "bytes: 1000"`)
		},
		attrs:  func(_ *Resolver, f *toxicFault) map[string]int64 { return map[string]int64{"bytes": f.Bytes} },
		encode: func(_ Encoder, f *toxicFault, a map[string]int64) { f.Bytes = a["bytes"] }},
	{name: "slow-close", typ: "slow_close", effect: history.EffectSlowLinks,
		about:  "delay the close of connections on chosen links by close_delay (toxiproxy slow_close toxic)",
		fields: []string{"close_delay"},
		decode: func(d Decoder, f *toxicFault) {
			f.CloseDelay = requiredPositive(d, "close_delay", `how late a close arrives, e.g. "close_delay: 2s"`)
		},
		attrs: func(r *Resolver, f *toxicFault) map[string]int64 {
			return map[string]int64{"delay": ceilMS(r.Wall(f.CloseDelay))}
		},
		encode: func(e Encoder, f *toxicFault, a map[string]int64) { f.CloseDelay = e.ScenMS(a["delay"]) }},
	{name: "timeout", typ: "timeout", effect: history.EffectCutLinks,
		about:  "stop all data on chosen links and close the connections after timeout (toxiproxy timeout toxic)",
		fields: []string{"timeout"},
		decode: func(d Decoder, f *toxicFault) {
			f.Timeout = requiredPositive(d, "timeout", `when the connection is closed, e.g. "timeout: 5s" (a partition is the 0 timeout)`)
		},
		attrs: func(r *Resolver, f *toxicFault) map[string]int64 {
			return map[string]int64{"timeout": ceilMS(r.Wall(f.Timeout))}
		},
		encode: func(e Encoder, f *toxicFault, a map[string]int64) { f.Timeout = e.ScenMS(a["timeout"]) }},
}

func init() {
	for _, k := range toxicKinds {
		Register(Kind{
			Name:     k.name,
			About:    k.about,
			Fields:   append([]string{"nodes", "clients", "duration", "stream", "toxicity"}, k.fields...),
			Triggers: []string{history.TriggerAt, history.TriggerEvent},
			New:      func() Fault { return &toxicFault{k: k} },
		})
	}
}

// ceilMS is wall ns as whole ms, rounded up (toxiproxy counts ms).
func ceilMS(ns int64) int64 { return (ns + int64(time.Millisecond) - 1) / int64(time.Millisecond) }

// requiredInt reads a required whole number ≥ lo.
func requiredInt(d Decoder, field string, lo int64, hint string) int64 {
	if !d.Has(field) {
		d.Required(field, hint)
		return 0
	}
	return optionalInt(d, field, lo)
}

// optionalInt reads a whole number ≥ lo (0 when absent).
func optionalInt(d Decoder, field string, lo int64) int64 {
	if !d.Has(field) {
		return 0
	}
	v, ok := d.Number(field, float64(lo)-1, 1<<40, fmt.Sprintf("a whole number ≥ %d", lo))
	if !ok {
		return 0
	}
	if v != math.Trunc(v) {
		d.Errorf(field, "must be a whole number (got %v)", v)
		return 0
	}
	return int64(v)
}

// requiredPositive reads a required duration > 0.
func requiredPositive(d Decoder, field, hint string) time.Duration {
	if !d.Has(field) {
		d.Required(field, hint)
		return 0
	}
	v, _ := d.Duration(field, Positive)
	return v
}

// decodeStream reads stream and toxicity, shared by every toxic kind.
func decodeStream(d Decoder) (string, float64) {
	stream, _ := d.Enum("stream", "stream", Streams())
	var tox float64
	if d.Has("toxicity") {
		tox, _ = d.Number("toxicity", 0, 1, "the probability a connection gets the toxic")
	}
	return stream, tox
}

func (f *toxicFault) Decode(d Decoder) {
	f.decode(d, `the nodes whose links get the toxic, e.g. "nodes: [n1]"`)
	f.Stream, f.Toxicity = decodeStream(d)
	f.k.decode(d, f)
}

func (f *toxicFault) Resolve(r *Resolver, s *history.FaultStep) error {
	if err := f.resolve(r, s, f.k.effect); err != nil {
		return err
	}
	resolveToxic(r, s, f.k.typ, f.Stream, StreamDownstream, f.Toxicity, f.k.attrs(r, f))
	if s.Effect == history.EffectCutLinks {
		s.Mode, s.Direction = f.k.name, DirectionBoth
		if s.Stream == StreamDownstream {
			s.Direction = DirectionReplies
		}
	}
	return nil
}

// resolveToxic fills a step's stream, toxicity and toxic; a toxicity
// below 1 draws the seed of its per-connection draws from the plan.
func resolveToxic(r *Resolver, s *history.FaultStep, typ, stream, def string, toxicity float64, attrs map[string]int64) {
	if stream == "" {
		stream = def
	}
	s.Stream, s.Toxic = stream, &history.Toxic{Type: typ, Attributes: attrs}
	if toxicity > 0 && toxicity < 1 {
		s.Toxicity, s.Toxic.Seed = toxicity, r.Rand.Uint64()
	}
}

func (f *toxicFault) Encode(e Encoder, s history.FaultStep) (err error) {
	err = f.encode(e, s)
	f.Stream, f.Toxicity = stream(s, StreamDownstream), toxicity(s)
	if s.Toxic == nil {
		return fmt.Errorf("a %s step without its toxic", s.Kind)
	}
	f.k.encode(e, f, s.Toxic.Attributes)
	return err
}

func (f *toxicFault) Apply(_ context.Context, env Env, s history.FaultStep) (Undo, error) {
	return applyToxic(env, s, s.Kind)
}

// applyToxic puts a step's toxic on each of its links, on its stream(s).
func applyToxic(env Env, s history.FaultStep, name string) (Undo, error) {
	ls, err := envLinks(env, s.Links)
	if err != nil {
		return nil, err
	}
	streams := []string{s.Stream}
	if s.Stream == StreamBoth {
		streams = []string{StreamUpstream, StreamDownstream}
	}
	attrs := map[string]any{}
	for k, v := range s.Toxic.Attributes {
		attrs[k] = v
	}
	var tls []ToxicLink
	for _, l := range ls {
		tl, ok := l.(ToxicLink)
		if !ok {
			return nil, errors.New("this cluster's links take no toxiproxy toxics")
		}
		tls = append(tls, tl)
	}
	undo := func(context.Context) error {
		return each(tls, func(tl ToxicLink) error {
			return each(streams, func(st string) error { return tl.RemoveToxic("locksim_" + name + "_" + st) })
		})
	}
	return undo, each(tls, func(tl ToxicLink) error {
		return each(streams, func(st string) error {
			return tl.AddToxic("locksim_"+name+"_"+st, s.Toxic.Type, st, s.Toxicity, s.Toxic.Seed, attrs)
		})
	})
}
