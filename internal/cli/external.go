package cli

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/locksim/locksim/internal/cluster"
)

// clusterFile is the file given with --cluster: a `cluster:` block that
// names existing nodes and a toxiproxy server for --backend external.
//
//	cluster:
//	  toxiproxy: 127.0.0.1:8474
//	  proxy_host: 127.0.0.1
//	  nodes:
//	    - addr: 127.0.0.1:7001
//	      upstream: redis-1:6379        # as toxiproxy reaches it; default addr
//	      kill: [docker, compose, kill, redis-1]
//	      restart: [docker, compose, start, redis-1]
//	      pause: [docker, compose, pause, redis-1]
//	      resume: [docker, compose, unpause, redis-1]
type clusterFile struct {
	Cluster struct {
		Toxiproxy string `yaml:"toxiproxy"`
		ProxyHost string `yaml:"proxy_host"`
		Nodes     []struct {
			Addr                 string `yaml:"addr"`
			Upstream             string `yaml:"upstream"`
			cluster.NodeCommands `yaml:",inline"`
		} `yaml:"nodes"`
	} `yaml:"cluster"`
}

// externalConfig builds the external backend's configuration from the
// --cluster file (if any), overridden by --redis-addrs, --toxiproxy and
// --proxy-host.
func externalConfig(f runFlags) (*cluster.External, error) {
	e := &cluster.External{Commands: map[string]cluster.NodeCommands{}}
	if f.clusterFile != "" {
		b, err := os.ReadFile(f.clusterFile)
		if err != nil {
			return nil, fmt.Errorf("--cluster: %w", err)
		}
		var cf clusterFile
		dec := yaml.NewDecoder(bytes.NewReader(b))
		dec.KnownFields(true)
		if err := dec.Decode(&cf); err != nil {
			return nil, fmt.Errorf("--cluster %s: %w", f.clusterFile, err)
		}
		e.Toxiproxy, e.ProxyHost = cf.Cluster.Toxiproxy, cf.Cluster.ProxyHost
		anyUpstream := false
		for i, n := range cf.Cluster.Nodes {
			if n.Addr == "" {
				return nil, fmt.Errorf("--cluster %s: node %d has no addr", f.clusterFile, i+1)
			}
			e.Nodes = append(e.Nodes, n.Addr)
			up := n.Upstream
			if up == "" {
				up = n.Addr
			} else {
				anyUpstream = true
			}
			e.Upstreams = append(e.Upstreams, up)
			e.Commands[fmt.Sprintf("n%d", i+1)] = n.NodeCommands
		}
		if !anyUpstream {
			e.Upstreams = nil
		}
	}
	if f.redisAddrs != "" {
		e.Nodes, e.Upstreams = nil, nil
		for _, a := range strings.Split(f.redisAddrs, ",") {
			if a = strings.TrimSpace(a); a != "" {
				e.Nodes = append(e.Nodes, a)
			}
		}
	}
	if f.toxiproxy != "" {
		e.Toxiproxy = f.toxiproxy
	}
	if f.proxyHost != "" {
		e.ProxyHost = f.proxyHost
	}
	if len(e.Nodes) == 0 {
		return nil, fmt.Errorf("--backend external needs node addresses: --redis-addrs host:port,… or --cluster FILE")
	}
	if e.Toxiproxy == "" {
		return nil, fmt.Errorf("--backend external needs a toxiproxy server: --toxiproxy host:port or --cluster FILE")
	}
	return e, nil
}
