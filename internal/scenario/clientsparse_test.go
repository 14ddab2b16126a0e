
func TestLoadingRefusesAClientClockFaultOnAProcessLibfaketimeCannotReach(t *testing.T) {
	if _, err := clients.Libfaketime(); err != nil {
		t.Skipf("skipped: %v", err)
	}
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, command, refused string
	}{
		{"a command libfaketime reaches is accepted", "[/usr/bin/python3, internal/clients/testdata/fake_adapter.py, ok]", ""},
		{"a command that drops the preload is refused where its command is", "[env, -u, LD_PRELOAD, /usr/bin/python3, internal/clients/testdata/fake_adapter.py, ok]",
			"s.yaml:3:20: process.command: client clock faults cannot reach this process: libfaketime does not reach the command"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := filepath.Join(t.TempDir(), "s.yaml")
			src := "clients: 2\nalgorithm: process\nprocess: {command: " + tt.command + ", dir: " + root + "}\nttl: 30s\n" +
				"faults:\n  - {kind: clock-jump, at: 1s, clients: [w1], delta: 5s}\n"
			if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Load(f)
			switch {
			case tt.refused == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.refused != "" && (err == nil || !strings.Contains(err.Error(), tt.refused)):
				t.Fatalf("Load = %v, want %q", err, tt.refused)
			}
		})
	}
}
