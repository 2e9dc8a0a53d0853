// Command c2sp_verify checks spec-guardian's C2SP checkpoints and tlog-proof receipts with
// the Go reference implementations of signed notes and transparency-log proofs
// (golang.org/x/mod/sumdb/note and golang.org/x/mod/sumdb/tlog), code the sidecar's
// authors did not write. Only the line framing of c2sp.org/tlog-proof@v1 and the
// checkpoint body (origin, size, root) are parsed here.
//
//	c2sp_verify checkpoint -vkey VKEY [-origin-prefix P] FILE
//	c2sp_verify proof      -vkey VKEY [-origin-prefix P] [-witness VKEY -quorum N] FILE
//	c2sp_verify consistency -vkey VKEY OLD_CHECKPOINT NEW_CHECKPOINT PROOF_FILE
//	c2sp_verify tiles -vkey VKEY DIR INDEX   (c2sp.org/tlog-tiles: DIR/checkpoint, DIR/tile/...)
//
// Prints "OK ..." and exits 0, or "REJECT: reason" and exits 1 (2: bad usage).
package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

func reject(format string, args ...interface{}) {
	fmt.Printf("REJECT: "+format+"\n", args...)
	os.Exit(1)
}

type checkpoint struct {
	origin string
	size   int64
	root   tlog.Hash
	text   string
	note   *note.Note
}

// openCheckpoint verifies the log signature with sumdb/note and parses the body.
func openCheckpoint(msg []byte, vkeys []string, prefix string) checkpoint {
	var vs []note.Verifier
	for _, k := range vkeys {
		v, err := note.NewVerifier(k)
		if err != nil {
			fmt.Printf("bad -vkey %q: %v\n", k, err)
			os.Exit(2)
		}
		vs = append(vs, v)
	}
	n, err := note.Open(msg, note.VerifierList(vs...))
	if err != nil {
		reject("checkpoint signature: %v", err)
	}
	lines := strings.SplitN(n.Text, "\n", 4)
	if len(lines) < 4 {
		reject("checkpoint body has fewer than three lines")
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || size < 0 || strconv.FormatInt(size, 10) != lines[1] {
		reject("checkpoint size %q", lines[1])
	}
	root, err := tlog.ParseHash(lines[2])
	if err != nil {
		reject("checkpoint root %q: %v", lines[2], err)
	}
	if prefix != "" && !strings.HasPrefix(lines[0], prefix+"/") {
		reject("origin %q is not a log under %q", lines[0], prefix)
	}
	return checkpoint{lines[0], size, root, n.Text, n}
}

// cosigned counts the witnesses whose cosignature/v1 (c2sp.org/tlog-cosignature) verifies.
// sumdb/note knows only algorithm 0x01, so this check is written here, on crypto/ed25519.
func cosigned(cp checkpoint, witnesses []string) []string {
	var ok []string
	for _, w := range witnesses {
		parts := strings.SplitN(w, "+", 3)
		if len(parts) != 3 {
			fmt.Printf("bad -witness %q\n", w)
			os.Exit(2)
		}
		raw, err := base64.StdEncoding.DecodeString(parts[2])
		if err != nil || len(raw) != 33 || raw[0] != 0x04 {
			fmt.Printf("bad -witness %q: not an Ed25519 cosigner key (type 0x04)\n", w)
			os.Exit(2)
		}
		h := sha256.Sum256(append([]byte(parts[0]+"\n"), raw...))
		if fmt.Sprintf("%08x", h[:4]) != parts[1] {
			fmt.Printf("bad -witness %q: key ID does not match\n", w)
			os.Exit(2)
		}
		for _, s := range cp.note.UnverifiedSigs {
			if s.Name != parts[0] || s.Hash != binary.BigEndian.Uint32(h[:4]) {
				continue
			}
			sig, err := base64.StdEncoding.DecodeString(s.Base64)
			if err != nil || len(sig) != 4+8+64 {
				continue
			}
			ts := binary.BigEndian.Uint64(sig[4:12])
			msg := fmt.Sprintf("cosignature/v1\ntime %d\n%s", ts, cp.text)
			if ed25519.Verify(ed25519.PublicKey(raw[1:]), []byte(msg), sig[12:]) {
				ok = append(ok, parts[0])
				break
			}
		}
	}
	return ok
}

func readFile(path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		fmt.Printf("cannot read %s: %v\n", path, err)
		os.Exit(2)
	}
	return b
}

func verifyProof(data []byte, vkeys, witnesses []string, prefix string, quorum int) {
	text := string(data)
	cut := strings.Index(text, "\n\n")
	if cut < 0 {
		reject("no blank line before the checkpoint")
	}
	lines := strings.Split(text[:cut], "\n")
	if lines[0] != "c2sp.org/tlog-proof@v1" {
		reject("first line is not c2sp.org/tlog-proof@v1")
	}
	lines = lines[1:]
	var extra []byte
	if len(lines) > 0 && strings.HasPrefix(lines[0], "extra ") {
		var err error
		if extra, err = base64.StdEncoding.DecodeString(lines[0][6:]); err != nil {
			reject("extra data is not base64")
		}
		lines = lines[1:]
	}
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "index ") {
		reject("no index line")
	}
	index, err := strconv.ParseInt(lines[0][6:], 10, 64)
	if err != nil || index < 0 || strconv.FormatInt(index, 10) != lines[0][6:] {
		reject("index %q", lines[0][6:])
	}
	var proof tlog.RecordProof
	for _, l := range lines[1:] {
		h, err := tlog.ParseHash(l)
		if err != nil {
			reject("proof hash %q: %v", l, err)
		}
		proof = append(proof, h)
	}
	cp := openCheckpoint([]byte(text[cut+2:]), vkeys, prefix)
	if extra == nil {
		reject("no extra data: the record cannot be recomputed")
	}
	record := sha256.Sum256(extra) // the record's chain hash: SHA-256 of its preimage
	if index >= cp.size {
		reject("index %d outside the tree of size %d", index, cp.size)
	}
	if err := tlog.CheckRecord(proof, cp.size, cp.root, index, tlog.RecordHash(record[:])); err != nil {
		reject("inclusion proof: %v", err)
	}
	ws := cosigned(cp, witnesses)
	if len(ws) < quorum {
		reject("cosigned by %d of the witnesses given (%s), quorum %d", len(ws), strings.Join(ws, ","), quorum)
	}
	table := ""
	if nl := bytes.IndexByte(extra, '\n'); nl >= 0 {
		table = strings.SplitN(string(extra[nl+1:]), "\t", 2)[0]
	}
	fmt.Printf("OK proof origin=%s size=%d index=%d record=%x table=%s cosigned=%d\n",
		cp.origin, cp.size, index, record, table, len(ws))
}

func verifyConsistency(oldMsg, newMsg, proofText []byte, vkeys []string, prefix string) {
	oldCp := openCheckpoint(oldMsg, vkeys, prefix)
	newCp := openCheckpoint(newMsg, vkeys, prefix)
	if oldCp.origin != newCp.origin {
		reject("checkpoints of two logs: %q, %q", oldCp.origin, newCp.origin)
	}
	var proof tlog.TreeProof
	for _, l := range strings.Fields(string(proofText)) {
		h, err := tlog.ParseHash(l)
		if err != nil {
			reject("proof hash %q: %v", l, err)
		}
		proof = append(proof, h)
	}
	if err := tlog.CheckTree(proof, newCp.size, newCp.root, oldCp.size, oldCp.root); err != nil {
		reject("consistency %d -> %d: %v", oldCp.size, newCp.size, err)
	}
	fmt.Printf("OK consistency origin=%s %d -> %d\n", newCp.origin, oldCp.size, newCp.size)
}

// c2spTiles reads c2sp.org/tlog-tiles files: sumdb's tile paths without the height element
// ("tile/8/L/N" -> "tile/L/N"); sumdb/tlog's TileHashReader checks each against the tree.
type c2spTiles struct{ dir string }

func (c2spTiles) Height() int { return 8 }

func (r c2spTiles) ReadTiles(tiles []tlog.Tile) ([][]byte, error) {
	var out [][]byte
	for _, t := range tiles {
		b, err := os.ReadFile(r.dir + "/" + strings.Replace(t.Path(), "tile/8/", "tile/", 1))
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

func (c2spTiles) SaveTiles([]tlog.Tile, [][]byte) {}

func verifyTiles(dir string, index int64, vkeys []string, prefix string) {
	cp := openCheckpoint(readFile(dir+"/checkpoint"), vkeys, prefix)
	if index < 0 || index >= cp.size {
		reject("index %d outside the tree of size %d", index, cp.size)
	}
	tree := tlog.Tree{N: cp.size, Hash: cp.root}
	hr := tlog.TileHashReader(tree, c2spTiles{dir})
	proof, err := tlog.ProveRecord(cp.size, index, hr)
	if err != nil {
		reject("tiles: %v", err)
	}
	// the entry bundle holding the record: "tile/8/data/N" in sumdb, "tile/entries/N" here
	data := tlog.Tile{H: 8, L: -1, N: index / 256, W: 256}
	if left := cp.size - 256*(index/256); left < 256 {
		data.W = int(left)
	}
	bundle := readFile(dir + "/" + strings.Replace(data.Path(), "tile/8/data/", "tile/entries/", 1))
	var entry []byte
	for i := int64(0); i <= index%256; i++ {
		if len(bundle) < 2 || len(bundle) < 2+int(binary.BigEndian.Uint16(bundle)) {
			reject("entry bundle truncated")
		}
		n := int(binary.BigEndian.Uint16(bundle))
		entry, bundle = bundle[2:2+n], bundle[2+n:]
	}
	if err := tlog.CheckRecord(proof, cp.size, cp.root, index, tlog.RecordHash(entry)); err != nil {
		reject("entry %d: %v", index, err)
	}
	fmt.Printf("OK tiles origin=%s size=%d index=%d record=%x\n", cp.origin, cp.size, index, entry)
}

func main() {
	if len(os.Args) < 2 {
		fmt.Println("usage: c2sp_verify checkpoint|proof|consistency -vkey VKEY ... FILE...")
		os.Exit(2)
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	var vkeys, witnesses multi
	fs.Var(&vkeys, "vkey", "log verifier key (repeatable)")
	fs.Var(&witnesses, "witness", "witness cosigner vkey (repeatable)")
	prefix := fs.String("origin-prefix", "", "accept only origins under this log name")
	quorum := fs.Int("quorum", 0, "cosignatures required from the -witness keys")
	if err := fs.Parse(os.Args[2:]); err != nil || len(vkeys) == 0 {
		fmt.Println("at least one -vkey is needed")
		os.Exit(2)
	}
	switch {
	case os.Args[1] == "checkpoint" && fs.NArg() == 1:
		cp := openCheckpoint(readFile(fs.Arg(0)), vkeys, *prefix)
		fmt.Printf("OK checkpoint origin=%s size=%d root=%s\n", cp.origin, cp.size, cp.root)
	case os.Args[1] == "proof" && fs.NArg() == 1:
		verifyProof(readFile(fs.Arg(0)), vkeys, witnesses, *prefix, *quorum)
	case os.Args[1] == "tiles" && fs.NArg() == 2:
		index, err := strconv.ParseInt(fs.Arg(1), 10, 64)
		if err != nil {
			fmt.Println("INDEX must be a number")
			os.Exit(2)
		}
		verifyTiles(fs.Arg(0), index, vkeys, *prefix)
	case os.Args[1] == "consistency" && fs.NArg() == 3:
		verifyConsistency(readFile(fs.Arg(0)), readFile(fs.Arg(1)), readFile(fs.Arg(2)), vkeys, *prefix)
	default:
		fmt.Println("usage: c2sp_verify checkpoint FILE | proof FILE | consistency OLD NEW PROOF")
		os.Exit(2)
	}
}
