package cli

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/loader"
	"github.com/compose-spec/compose-go/v2/types"
	"gopkg.in/yaml.v3"
)

// TestDockerComposeAgreesWithTheExternalClusterFileAndTheDocs validates
// docker-compose.yml with the Compose specification's own loader
// (compose-go: schema, anchors, profiles) — no container engine runs here
// — and checks that its services, images, ports and commands are the ones
// external-cluster.yaml and docs/ci.md's external section name.
func TestDockerComposeAgreesWithTheExternalClusterFileAndTheDocs(t *testing.T) {
	ctx := context.Background()
	p, err := loader.LoadWithContext(ctx, types.ConfigDetails{
		WorkingDir:  "../..",
		ConfigFiles: []types.ConfigFile{{Filename: "../../docker-compose.yml"}},
		Environment: types.Mapping{},
	}, func(o *loader.Options) {
		o.SetProjectName("locksim", true)
		o.Profiles = []string{"*"}
	})
	if err != nil {
		t.Fatalf("docker-compose.yml does not load as a Compose file: %v", err)
	}
	b, err := os.ReadFile("../../external-cluster.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cf clusterFile
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&cf); err != nil {
		t.Fatalf("external-cluster.yaml: %v", err)
	}
	readme, err := os.ReadFile("../../docs/ci.md")
	if err != nil {
		t.Fatal(err)
	}
	service := func(t *testing.T, name string) types.ServiceConfig {
		t.Helper()
		s, ok := p.Services[name]
		if !ok {
			t.Fatalf("docker-compose.yml has no service %s (has %v)", name, slices.Sorted(func(yield func(string) bool) {
				for n := range p.Services {
					if !yield(n) {
						return
					}
				}
			}))
		}
		return s
	}

	t.Run("each node of external-cluster.yaml is a redis:7 service published on its address", func(t *testing.T) {
		if len(cf.Cluster.Nodes) != 5 {
			t.Fatalf("external-cluster.yaml has %d nodes, want 5", len(cf.Cluster.Nodes))
		}
		for i, n := range cf.Cluster.Nodes {
			name := fmt.Sprintf("redis-%d", i+1)
			s := service(t, name)
			if s.Image != "redis:7" || len(s.Command) == 0 || s.Command[0] != "redis-server" {
				t.Errorf("%s: image %q, command %q; want redis:7 running redis-server", name, s.Image, s.Command)
			}
			host, port, _ := net.SplitHostPort(n.Addr)
			if len(s.Ports) != 1 || s.Ports[0].HostIP != host || s.Ports[0].Published != port || s.Ports[0].Target != 6379 {
				t.Errorf("%s publishes %+v, want %s → 6379 (external-cluster.yaml node %d)", name, s.Ports, n.Addr, i+1)
			}
			for what, cmd := range map[string][]string{"kill": n.Kill, "restart": n.Restart, "pause": n.Pause, "resume": n.Resume} {
				if len(cmd) != 4 || cmd[0] != "docker" || cmd[1] != "compose" || cmd[3] != name {
					t.Errorf("node %d's %s command %q does not act on service %s", i+1, what, cmd, name)
				}
			}
		}
	})
	t.Run("the toxiproxy service listens where external-cluster.yaml looks for it", func(t *testing.T) {
		s := service(t, "toxiproxy")
		host, port, _ := net.SplitHostPort(cf.Cluster.Toxiproxy)
		if s.NetworkMode != "host" || !slices.Equal(s.Command, types.ShellCommand{"-host", host, "-port", port}) {
			t.Errorf("toxiproxy: network %q, command %q; want host network, -host %s -port %s", s.NetworkMode, s.Command, host, port)
		}
		if !strings.HasPrefix(s.Image, "ghcr.io/shopify/toxiproxy:") {
			t.Errorf("toxiproxy image %q", s.Image)
		}
	})
	t.Run("docs/ci.md's external section names the same addresses and commands", func(t *testing.T) {
		for _, want := range []string{"redis-1..5 on 127.0.0.1:7001-7005", "toxiproxy API on " + cf.Cluster.Toxiproxy,
			"docker compose up -d", "--cluster external-cluster.yaml", "docker compose --profile sentinel up -d"} {
			if !bytes.Contains(readme, []byte(want)) {
				t.Errorf("docs/ci.md does not say %q", want)
			}
		}
	})
	t.Run("the Sentinel stack's replica and three sentinels follow its primary", func(t *testing.T) {
		primary := service(t, "redis-primary")
		pport := argAfter(primary.Command, "--port")
		replica := service(t, "redis-replica")
		ro := slices.Index(replica.Command, "--replicaof")
		if ro < 0 || ro+2 >= len(replica.Command) || replica.Command[ro+1] != "127.0.0.1" || replica.Command[ro+2] != pport {
			t.Errorf("redis-replica follows %q, want 127.0.0.1 %s", replica.Command, pport)
		}
		monitor := regexp.MustCompile(`sentinel monitor n1 127\.0\.0\.1 (\d+) 2`)
		portRE := regexp.MustCompile(`port (\d+)`)
		seen := map[string]bool{pport: true, argAfter(replica.Command, "--port"): true}
		for i := 1; i <= 3; i++ {
			s := service(t, fmt.Sprintf("sentinel-%d", i))
			script := strings.Join(s.Command, " ")
			m := monitor.FindStringSubmatch(script)
			if m == nil || m[1] != pport || !strings.Contains(script, "exec redis-sentinel") {
				t.Errorf("sentinel-%d does not monitor 127.0.0.1:%s with quorum 2: %q", i, pport, script)
			}
			if pm := portRE.FindStringSubmatch(script); pm == nil || seen[pm[1]] {
				t.Errorf("sentinel-%d has no port of its own: %q", i, script)
			} else {
				seen[pm[1]] = true
			}
		}
		for _, name := range []string{"redis-primary", "redis-replica", "sentinel-1", "sentinel-2", "sentinel-3"} {
			if s := service(t, name); s.NetworkMode != "host" || !slices.Equal(s.Profiles, []string{"sentinel"}) || s.Image != "redis:7" {
				t.Errorf("%s: network %q, profiles %q, image %q; want host, [sentinel], redis:7", name, s.NetworkMode, s.Profiles, s.Image)
			}
		}
	})
}

// argAfter is the argument after flag in args, "" when none.
func argAfter(args []string, flag string) string {
	i := slices.Index(args, flag)
	if i < 0 || i+1 >= len(args) {
		return ""
	}
	return args[i+1]
}
