package agentdevice

import (
	"os"
	"path/filepath"
	"testing"
)

func TestAgentDeviceConfig(t *testing.T) {
	t.Parallel()
	write := func(t *testing.T, path, body string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name          string
		user, project string
		env           map[string]string
		args          []string
		wantRetries   int
		wantTimeout   int
		wantPlatform  string
		wantErr       string
	}{
		{name: "user only", user: `{"retries":1,"timeoutMs":100,"platform":"android"}`, wantRetries: 1, wantTimeout: 100, wantPlatform: "android"},
		{name: "project over user", user: `{"retries":1,"timeoutMs":100}`, project: `{"retries":2}`, wantRetries: 2, wantTimeout: 100},
		{name: "env over project", project: `{"retries":2,"timeoutMs":100}`, env: map[string]string{"AGENT_DEVICE_RETRIES": "3", "AGENT_DEVICE_TIMEOUT_MS": "200"}, wantRetries: 3, wantTimeout: 200},
		{name: "flags over env", project: `{"retries":2}`, env: map[string]string{"AGENT_DEVICE_RETRIES": "3"}, args: []string{"--retries", "0", "--timeout", "5"}, wantRetries: 0, wantTimeout: 5},
		{name: "agent-device keys adtest does not read", project: `{"snapshotDepth":3,"sessionLock":"strip","retries":1}`, wantRetries: 1},
		{name: "operator key in the user file", user: `{"daemonBaseUrl":"http://x","retries":1}`, wantRetries: 1},
		{name: "unknown key", project: `{"retires":1}`, wantErr: `Unknown config key "retires" in project config file agent-device.json. (did you mean "retries"?)`},
		{name: "operator key in the project", project: `{"daemonAuthToken":"s3cret"}`, wantErr: `Config key "daemonAuthToken" is not allowed in project config file agent-device.json. Move it to ~/.agent-device/config.json, pass it with AGENT_DEVICE_CONFIG, or provide it through flags or AGENT_DEVICE_* variables.`},
		{name: "wrong type", project: `{"retries":"two"}`, wantErr: `Invalid value of config key "retries" in project config file agent-device.json: want an integer.`},
		{name: "bad env value", env: map[string]string{"AGENT_DEVICE_RETRIES": "x"}, wantErr: `AGENT_DEVICE_RETRIES: not an integer: "x"`},
		{name: "not an object", project: `[1]`, wantErr: `Config file must contain a JSON object: agent-device.json`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			home, cwd := filepath.Join(dir, "home"), filepath.Join(dir, "proj")
			if tt.user != "" {
				write(t, filepath.Join(home, ".agent-device", "config.json"), tt.user)
			}
			if tt.project != "" {
				write(t, filepath.Join(cwd, "agent-device.json"), tt.project)
			}
			vars := map[string]string{"HOME": home}
			for k, v := range tt.env {
				vars[k] = v
			}
			env := Env{Cwd: cwd, ReadFile: os.ReadFile, Getenv: func(k string) string { return vars[k] }}
			args, err := ParseArgs("test", tt.args, TestFlags)
			if err != nil {
				t.Fatal(err)
			}
			c, err := Load(env, args)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("err = %v\nwant %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			r, _ := c.Int("retries")
			to, _ := c.Int("timeoutMs")
			if r != tt.wantRetries || to != tt.wantTimeout || c.Str("platform") != tt.wantPlatform {
				t.Errorf("retries %d timeoutMs %d platform %q, want %d %d %q", r, to, c.Str("platform"), tt.wantRetries, tt.wantTimeout, tt.wantPlatform)
			}
		})
	}
}
