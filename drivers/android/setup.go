package android

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/adtest/adtest/internal/atomicfile"
)

// Setup fetches the pinned agent-device npm tarball with `npm pack`,
// extracts the snapshot helper APK and its manifest into dir and checks the
// APK's sha256. It does nothing when dir already holds the right APK.
func Setup(ctx context.Context, dir string, logf func(string, ...any)) error {
	if _, err := LoadHelperAPK(dir); err == nil {
		logf("android helper: %s is up to date", filepath.Join(dir, HelperAPKName))
		return nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return fmt.Errorf("npm is needed to fetch %s@%s (install Node.js and npm): %w", HelperNPMPackage, HelperNPMVersion, err)
	}
	tmp, err := os.MkdirTemp("", "adtest-helper-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	cmd := exec.CommandContext(ctx, npm, "pack", "--silent", HelperNPMPackage+"@"+HelperNPMVersion)
	cmd.Dir = tmp
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("npm pack %s@%s: %v: %s", HelperNPMPackage, HelperNPMVersion, err, strings.TrimSpace(string(out)))
	}
	tgz := filepath.Join(tmp, HelperNPMPackage+"-"+HelperNPMVersion+".tgz")
	files, err := extract(tgz, map[string]bool{
		"package/android/snapshot-helper/dist/" + HelperAPKName:  true,
		"package/android/snapshot-helper/dist/" + HelperManifest: true,
	})
	if err != nil {
		return err
	}
	apk, manifest := files["package/android/snapshot-helper/dist/"+HelperAPKName], files["package/android/snapshot-helper/dist/"+HelperManifest]
	if apk == nil || manifest == nil {
		return fmt.Errorf("%s has no helper APK or manifest for %s", tgz, HelperNPMVersion)
	}
	if got := sha256hex(apk); got != HelperSHA256 {
		return fmt.Errorf("the helper APK in %s@%s has sha256 %s, want %s", HelperNPMPackage, HelperNPMVersion, got, HelperSHA256)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, b := range map[string][]byte{HelperManifest: manifest, HelperAPKName: apk} {
		if err := atomicfile.WriteFile(filepath.Join(dir, name), b, atomicfile.Options{}); err != nil {
			return err
		}
	}
	logf("android helper: %s (sha256 %s)", filepath.Join(dir, HelperAPKName), HelperSHA256)
	return nil
}

func extract(tgz string, want map[string]bool) (map[string][]byte, error) {
	f, err := os.Open(tgz)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tgz, err)
	}
	tr := tar.NewReader(zr)
	out := map[string][]byte{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", tgz, err)
		}
		if want[h.Name] {
			b, err := io.ReadAll(io.LimitReader(tr, 16<<20))
			if err != nil {
				return nil, err
			}
			out[h.Name] = b
		}
	}
}
