// Package agentdevice is agent-device's command-line surface as adtest's
// drop-ins (replay, test, the interactive open) read it: its configuration
// (files, AGENT_DEVICE_* and the flags, config.go), the flags of its replay
// and test commands and its rule for open's targets (flags.go). It reads
// the process only through Env.
package agentdevice

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/adtest/adtest/cmd/internal/cmdline"
	"github.com/adtest/adtest/internal/scriptpath"
	"github.com/adtest/adtest/lang"
)

// agent-device's configuration, honoured by replay, test and run: the user
// file ~/.agent-device/config.json (or $AGENT_DEVICE_HOME/config.json), the
// project file ./agent-device.json, AGENT_DEVICE_* variables and the flags,
// later ones winning (user < project < env < CLI). An explicit --config
// FILE or AGENT_DEVICE_CONFIG replaces the two files. Keys are camelCase
// flag names; an unknown key, a bad value or an operator-only key in the
// project file fails before anything runs, naming the file and the key
// (never its value).

type configKind int

const (
	cfgString configKind = iota
	cfgInt
	cfgBool
	cfgAny // an agent-device key adtest does not read: any value
)

type configKey struct {
	kind configKind
	// userOnly: operator-controlled, refused in the project file.
	userOnly bool
}

// usedKeys are the keys adtest reads.
var usedKeys = map[string]configKey{
	"platform": {kind: cfgString}, "device": {kind: cfgString}, "session": {kind: cfgString},
	"target": {kind: cfgString}, "retries": {kind: cfgInt}, "timeoutMs": {kind: cfgInt},
	"failFast": {kind: cfgBool}, "shardAll": {kind: cfgInt}, "shardSplit": {kind: cfgInt},
	"artifactsDir": {kind: cfgString},
	// --grid (grid_flags.go).
	"grid": {kind: cfgString}, "gridCapabilities": {kind: cfgString}, "gridTimeout": {kind: cfgString},
}

// ignoredKeys are agent-device's other flag keys (its CLI flag definitions:
// target, connection, workflow and action flags): accepted so that an
// existing file keeps working, and not read.
var ignoredKeys = strings.Fields(`
	udid serial stale surface headless targetApp metroHost metroPort metroProjectRoot kind
	perfTemplate metroKind metroPublicBaseUrl metroProxyBaseUrl metroBearerToken metroPreparePort
	metroListenHost metroStatusHost metroStartupTimeoutMs metroProbeTimeoutMs metroRuntimeFile
	metroNoReuseExisting metroNoInstallDeps bundleUrl launchUrl iosSimulatorDeviceSet
	iosXctestrunFile iosXctestDerivedDataPath iosXctestEnvDir deviceHub testIme
	androidDeviceAllowlist remote activity launchConsole launchArgs header githubActionsArtifact
	installSource remoteConfig stateDir daemonBaseUrl daemonAuthToken daemonTransport
	daemonServerMode proxyHost proxyPort tenant sessionIsolation runId leaseId leaseBackend
	provider providerSessionId providerApp providerOsVersion providerProject providerBuild
	providerSessionName providerDeviceOrientation providerGeoLocation providerTimezone
	providerLanguage providerLocale providerNetworkProfile providerCustomNetwork
	providerNoResignApp awsProjectArn awsDeviceArn awsAppArn awsRegion awsInteractionMode force
	clean noLogin sessionLock replayUpdate replayFrom replayPlanDigest replayKeepSession
	replayMaestro replayEnv recordVideo reporter reportJunit steps stepsFile batchOnError
	batchMaxSteps appsFilter snapshotInteractiveOnly snapshotDepth snapshotScope snapshotRaw
	snapshotForceFull findFirst findLast out artifact dsym searchPath overlayRefs baseline
	threshold screenshotScale screenshotFullscreen count pointerCount fps quality hideTouches
	recordingScope intervalMs delayMs recordAs durationMs holdMs jitterPx pixels doubleTap verify
	settle settleQuietMs clickButton backMode pauseMs pattern verbose cost responseLevel json
	snapshotDiff saveScript networkInclude shutdown relaunch restart retainPaths retentionMs
	noRecord record`)

// operatorKey reports a key agent-device allows only in the user file, an
// explicit --config file or the environment: endpoints, credentials, daemon
// and provider settings, local code and write destinations.
func operatorKey(k string) bool {
	for _, p := range []string{"daemon", "provider", "aws", "metro", "lease"} {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	switch k {
	case "stateDir", "tenant", "sessionIsolation", "runId", "bundleUrl", "header", "installSource",
		"githubActionsArtifact", "remoteConfig", "reporter", "reportJunit", "saveScript",
		"launchConsole", "stepsFile", "proxyHost", "proxyPort":
		return true
	}
	return false
}

func lookupKey(k string) (configKey, bool) {
	if c, ok := usedKeys[k]; ok {
		c.userOnly = operatorKey(k)
		return c, true
	}
	for _, n := range ignoredKeys {
		if n == k {
			return configKey{kind: cfgAny, userOnly: operatorKey(k)}, true
		}
	}
	return configKey{}, false
}

// flagKeys maps the drop-in commands' flags to their config keys.
var flagKeys = map[string]string{
	"platform": "platform", "device": "device", "session": "session", "target": "target",
	"retries": "retries", "timeout": "timeoutMs", "fail-fast": "failFast",
	"shard-all": "shardAll", "shard-split": "shardSplit", "artifacts-dir": "artifactsDir",
}

// Env is what reading the configuration needs of the process.
type Env struct {
	Cwd      string
	Getenv   func(string) string // nil: an empty environment
	ReadFile func(string) ([]byte, error)
}

func (e Env) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

// Config is the merged configuration.
type Config struct {
	vals map[string]any // string, int or bool
	from map[string]string
}

// Str is a string key's value ("" when unset).
func (c *Config) Str(k string) string { s, _ := c.vals[k].(string); return s }

// Bool is a boolean key's value (false when unset).
func (c *Config) Bool(k string) bool {
	b, _ := c.vals[k].(bool)
	return b
}

// Int is an integer key's value and whether it is set.
func (c *Config) Int(k string) (int, bool) {
	n, ok := c.vals[k].(int)
	return n, ok
}

// From names where a key's value came from: a file, a variable or a flag.
func (c *Config) From(k string) string { return c.from[k] }

// ExpandHome expands a leading ~ of p to $HOME.
func ExpandHome(getenv func(string) string, p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home := (Env{Getenv: getenv}).getenv("HOME"); home != "" {
			return filepath.Join(home, strings.TrimPrefix(p, "~"))
		}
	}
	return p
}

// Load merges the files, the environment and, when args is not nil, the
// flags of a drop-in command line.
func Load(env Env, args *cmdline.Args) (*Config, error) {
	c := &Config{vals: map[string]any{}, from: map[string]string{}}
	type source struct {
		path     string
		project  bool
		required bool
	}
	var sources []source
	if explicit := env.getenv("AGENT_DEVICE_CONFIG"); explicit != "" {
		sources = []source{{path: scriptpath.Abs(env.Cwd, ExpandHome(env.Getenv, explicit)), required: true}}
	} else {
		home := env.getenv("AGENT_DEVICE_HOME")
		if home == "" && env.getenv("HOME") != "" {
			home = filepath.Join(env.getenv("HOME"), ".agent-device")
		}
		if home != "" {
			sources = append(sources, source{path: filepath.Join(ExpandHome(env.Getenv, home), "config.json")})
		}
		sources = append(sources, source{path: filepath.Join(env.Cwd, "agent-device.json"), project: true})
	}
	for _, s := range sources {
		b, err := env.ReadFile(s.path)
		if errors.Is(err, fs.ErrNotExist) && !s.required {
			continue
		}
		shown := scriptpath.Display(env.Cwd, s.path)
		if err != nil {
			return nil, fmt.Errorf("config %s: %v", shown, err)
		}
		if err := c.mergeFile(shown, b, s.project); err != nil {
			return nil, err
		}
	}
	for key, k := range usedKeys {
		name := "AGENT_DEVICE_" + upperSnake(key)
		v := env.getenv(name)
		if v == "" {
			continue
		}
		val, err := parseConfigValue(k.kind, v)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		c.vals[key], c.from[key] = val, name
	}
	if args != nil {
		for flag, key := range flagKeys {
			if !args.Has(flag) {
				continue
			}
			v := args.Last(flag)
			if usedKeys[key].kind == cfgBool {
				v = "true"
			}
			val, err := parseConfigValue(usedKeys[key].kind, v)
			if err != nil {
				return nil, fmt.Errorf("--%s: %v", flag, err)
			}
			c.vals[key], c.from[key] = val, "--"+flag
		}
	}
	return c, nil
}

func (c *Config) mergeFile(shown string, b []byte, project bool) error {
	var raw map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&raw); err != nil || raw == nil {
		return fmt.Errorf("Config file must contain a JSON object: %s", shown)
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	label := "config file " + shown
	if project {
		label = "project " + label
	}
	for _, key := range keys {
		k, ok := lookupKey(key)
		if !ok {
			return fmt.Errorf("Unknown config key %q in %s.%s", key, label, suggestKey(key))
		}
		if project && k.userOnly {
			return fmt.Errorf("Config key %q is not allowed in %s. Move it to ~/.agent-device/config.json, pass it with AGENT_DEVICE_CONFIG, or provide it through flags or AGENT_DEVICE_* variables.", key, label)
		}
		var v any
		var err error
		switch k.kind {
		case cfgAny:
			continue
		case cfgString:
			var s string
			err = json.Unmarshal(raw[key], &s)
			v = s
		case cfgInt:
			var n int
			err = json.Unmarshal(raw[key], &n)
			v = n
		case cfgBool:
			var x bool
			err = json.Unmarshal(raw[key], &x)
			v = x
		}
		if err != nil {
			return fmt.Errorf("Invalid value of config key %q in %s: want %s.", key, label, kindName(k.kind))
		}
		if u, _ := v.(string); project && key == "grid" && (strings.Contains(u, "@") || strings.Contains(u, "?")) {
			// A project file is committed: the Grid's credentials are not.
			return fmt.Errorf("Config key \"grid\" in %s carries credentials (user:password@ or ?token=). Keep the URL without them there and give them through ADTEST_GRID, --grid or ~/.agent-device/config.json.", label)
		}
		c.vals[key], c.from[key] = v, shown
	}
	return nil
}

func kindName(k configKind) string {
	return [...]string{"a string", "an integer", "true or false"}[k]
}

func parseConfigValue(kind configKind, v string) (any, error) {
	switch kind {
	case cfgInt:
		n, err := strconv.Atoi(v)
		if err != nil {
			return nil, fmt.Errorf("not an integer: %q", v)
		}
		return n, nil
	case cfgBool:
		switch v {
		case "1", "true":
			return true, nil
		case "0", "false":
			return false, nil
		}
		return nil, fmt.Errorf("not true or false: %q", v)
	}
	return v, nil
}

// upperSnake is timeoutMs -> TIMEOUT_MS.
func upperSnake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) && i > 0 {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToUpper(r))
	}
	return b.String()
}

// suggestKey offers the nearest known key of a misspelt one.
func suggestKey(key string) string {
	names := append([]string(nil), ignoredKeys...)
	for k := range usedKeys {
		names = append(names, k)
	}
	sort.Strings(names)
	if best, ok := lang.Closest(key, names, lang.SuggestionDistance(key)); ok {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	return ""
}
