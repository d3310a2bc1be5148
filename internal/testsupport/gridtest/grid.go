package gridtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// JarFile is where scripts/setup-grid.sh puts the Grid's jar: the per-user
// cache (ADTEST_CACHE_DIR, else XDG_CACHE_HOME/adtest, else
// ~/.cache/adtest).
func JarFile(getenv func(string) string) string {
	dir := getenv("ADTEST_CACHE_DIR")
	if dir == "" {
		base := getenv("XDG_CACHE_HOME")
		if base == "" {
			base = filepath.Join(getenv("HOME"), ".cache")
		}
		dir = filepath.Join(base, "adtest")
	}
	return filepath.Join(dir, NPMPackage, NPMVersion, filepath.FromSlash(JarPath))
}

// startBound bounds the start of the hub and its nodes (JVMs: slow on a
// loaded two-core machine).
const startBound = 180 * time.Second

// Grid is a hub and its nodes, each a JVM in a process group of its own
// (a node's chromedriver and browsers go with it), on loopback ports.
type Grid struct {
	URL   string
	Nodes []*Node
	hub   *exec.Cmd
	dir   string
}

// Node is one node of the Grid.
type Node struct {
	URI string // as the Grid names it: http://127.0.0.1:PORT
	cmd *exec.Cmd
}

// Start starts a hub and n nodes of maxSessions slots each, logging into
// dir, and waits until the hub lists every node as up.
func Start(ctx context.Context, jar, dir string, n, maxSessions int) (*Grid, error) {
	if _, err := os.Stat(jar); err != nil {
		return nil, fmt.Errorf("the Selenium Grid jar is missing (%v): run scripts/setup-grid.sh", err)
	}
	if _, err := exec.LookPath("java"); err != nil {
		return nil, errors.New("java is missing: run scripts/setup-grid.sh")
	}
	ports, err := freePorts(3 + n)
	if err != nil {
		return nil, err
	}
	pub := "tcp://127.0.0.1:" + strconv.Itoa(ports[1])
	sub := "tcp://127.0.0.1:" + strconv.Itoa(ports[2])
	g := &Grid{URL: "http://127.0.0.1:" + strconv.Itoa(ports[0]), dir: dir}
	g.hub, err = startJVM(dir, "hub", jar, "hub", "--host", "127.0.0.1", "--port", strconv.Itoa(ports[0]),
		"--publish-events", pub, "--subscribe-events", sub,
		// A node killed by a test is dropped (with its sessions) within
		// seconds rather than the default two minutes.
		"--healthcheck-interval", "5")
	if err != nil {
		return nil, err
	}
	for i := 0; i < n; i++ {
		port := strconv.Itoa(ports[3+i])
		cmd, err := startJVM(dir, "node"+strconv.Itoa(i+1), jar, "node", "--host", "127.0.0.1", "--port", port,
			"--hub", g.URL, "--publish-events", pub, "--subscribe-events", sub,
			"--max-sessions", strconv.Itoa(maxSessions), "--selenium-manager", "false")
		if err != nil {
			g.Close()
			return nil, err
		}
		g.Nodes = append(g.Nodes, &Node{URI: "http://127.0.0.1:" + port, cmd: cmd})
	}
	ctx, cancel := context.WithTimeout(ctx, startBound)
	defer cancel()
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		var st struct {
			Grid struct {
				NodeCount int `json:"nodeCount"`
			} `json:"grid"`
		}
		if err := g.Query(ctx, "{ grid { nodeCount } }", &st); err == nil && st.Grid.NodeCount == n {
			return g, nil
		}
		select {
		case <-ctx.Done():
			g.Close()
			return nil, fmt.Errorf("the Grid did not list its %d nodes within %s (logs in %s)", n, startBound, dir)
		case <-tick.C:
		}
	}
}

func startJVM(dir, name, jar string, args ...string) (*exec.Cmd, error) {
	log, err := os.Create(filepath.Join(dir, name+".log"))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("java", append([]string{"-Xmx256m", "-jar", jar}, args...)...)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		log.Close()
		return nil, fmt.Errorf("starting the Grid's %s: %v", name, err)
	}
	go func() { cmd.Wait(); log.Close() }()
	return cmd, nil
}

func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	var ports []int
	for i := 0; i < n; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// Kill kills the node and everything it started (its process group), as a
// machine that goes away does.
func (n *Node) Kill() {
	if n.cmd.Process != nil {
		syscall.Kill(-n.cmd.Process.Pid, syscall.SIGKILL)
	}
}

// Close kills the hub and every node, with what they started.
func (g *Grid) Close() {
	for _, n := range g.Nodes {
		n.Kill()
	}
	if g.hub != nil && g.hub.Process != nil {
		syscall.Kill(-g.hub.Process.Pid, syscall.SIGKILL)
	}
}

// Query asks the Grid's GraphQL endpoint and decodes its data into out.
func (g *Grid) Query(ctx context.Context, q string, out any) error {
	body, _ := json.Marshal(map[string]string{"query": q})
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, g.URL+"/graphql", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("graphql: %s", resp.Status)
	}
	return json.Unmarshal(env.Data, out)
}

// Sessions returns the node URI of every session the Grid holds and the
// number of requests in its queue.
func (g *Grid) Sessions(ctx context.Context) (nodes []string, queued int, err error) {
	var st struct {
		SessionsInfo struct {
			Sessions []struct {
				NodeURI string `json:"nodeUri"`
			} `json:"sessions"`
			Queue []string `json:"sessionQueueRequests"`
		} `json:"sessionsInfo"`
	}
	if err := g.Query(ctx, "{ sessionsInfo { sessions { nodeUri } sessionQueueRequests } }", &st); err != nil {
		return nil, 0, err
	}
	for _, s := range st.SessionsInfo.Sessions {
		nodes = append(nodes, s.NodeURI)
	}
	return nodes, len(st.SessionsInfo.Queue), nil
}

// Reserved counts the slots whose session a node is creating (GET /status:
// a session id "reserved"); the Grid lists such a session nowhere else.
func (g *Grid) Reserved(ctx context.Context) (int, error) {
	st, err := g.status(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, node := range st.Value.Nodes {
		for _, s := range node.Slots {
			if s.Session != nil && s.Session.ID == "reserved" {
				n++
			}
		}
	}
	return n, nil
}

// Held asks a node itself (its own GET /status) how many of its slots hold
// a session. A node is the authority on the browsers it runs; the hub's
// view of them is built from the node's events and may lag behind a
// DELETE for a moment.
func (n *Node) Held(ctx context.Context) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, n.URI+"/status", nil)
	if err != nil {
		return 0, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var st struct {
		Value struct {
			Node struct {
				Slots []struct {
					Session *struct {
						ID string `json:"sessionId"`
					} `json:"session"`
				} `json:"slots"`
			} `json:"node"`
		} `json:"value"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		return 0, fmt.Errorf("node %s status: %w", n.URI, err)
	}
	held := 0
	for _, s := range st.Value.Node.Slots {
		if s.Session != nil {
			held++
		}
	}
	return held, nil
}

// gridStatus is the part of GET /status the tests read.
type gridStatus struct {
	Value struct {
		Nodes []struct {
			URI   string `json:"uri"`
			Slots []struct {
				LastStarted time.Time `json:"lastStarted"`
				Session     *struct {
					ID string `json:"sessionId"`
				} `json:"session"`
			} `json:"slots"`
		} `json:"nodes"`
	} `json:"value"`
}

func (g *Grid) status(ctx context.Context) (*gridStatus, error) {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, g.URL+"/status", nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var st gridStatus
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		return nil, err
	}
	return &st, nil
}

// Started returns, for each node URI, when a session last started on one
// of its slots (GET /status).
func (g *Grid) Started(ctx context.Context) (map[string]time.Time, error) {
	st, err := g.status(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]time.Time{}
	for _, n := range st.Value.Nodes {
		for _, s := range n.Slots {
			if s.LastStarted.After(out[n.URI]) {
				out[n.URI] = s.LastStarted
			}
		}
	}
	return out, nil
}

// Replace starts a new node in place of node i (killed), without waiting
// for it (Ready does): a test that kills a node leaves the Grid whole for
// the next, and the last one does not pay for the start.
func (g *Grid) Replace(jar string, i, maxSessions int) error {
	ports, err := freePorts(1)
	if err != nil {
		return err
	}
	pub, sub := g.hubArg("--publish-events"), g.hubArg("--subscribe-events")
	port := strconv.Itoa(ports[0])
	cmd, err := startJVM(g.dir, "node"+strconv.Itoa(i+1)+"-"+port, jar, "node", "--host", "127.0.0.1", "--port", port,
		"--hub", g.URL, "--publish-events", pub, "--subscribe-events", sub,
		"--max-sessions", strconv.Itoa(maxSessions), "--selenium-manager", "false")
	if err != nil {
		return err
	}
	g.Nodes[i] = &Node{URI: "http://127.0.0.1:" + port, cmd: cmd}
	return nil
}

// Ready waits until the Grid lists every node of g as up.
func (g *Grid) Ready(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, startBound)
	defer cancel()
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		var st struct {
			NodesInfo struct {
				Nodes []struct {
					URI    string `json:"uri"`
					Status string `json:"status"`
				} `json:"nodes"`
			} `json:"nodesInfo"`
		}
		if err := g.Query(ctx, "{ nodesInfo { nodes { uri status } } }", &st); err == nil {
			up := 0
			for _, n := range st.NodesInfo.Nodes {
				for _, mine := range g.Nodes {
					if n.URI == mine.URI && n.Status == "UP" {
						up++
					}
				}
			}
			if up == len(g.Nodes) {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("the Grid's nodes were not all up within %s (logs in %s)", startBound, g.dir)
		case <-tick.C:
		}
	}
}

// hubArg is the value of the hub's flag name.
func (g *Grid) hubArg(name string) string {
	for i, a := range g.hub.Args {
		if a == name && i+1 < len(g.hub.Args) {
			return g.hub.Args[i+1]
		}
	}
	return ""
}
