package impl

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/lumo-caderninho/mcp/impl/platform/sqldb/sqldbtest"
)

// The repository's Markdown is for users, and it must not drift from the code: every shell snippet
// marked runnable runs against a fresh data folder, every relative link and #anchor resolves, and
// the README's test command is the one CI runs.
//
// A fenced block's info string says what the test does with it:
//
//	```sh runnable                 run it (bash -e -o pipefail), in the order of the file
//	```sh runnable needs=postgres  run it only with LUMO_TEST_DB, with $DB a fresh PostgreSQL schema
//	```text output                 beside a runnable block: each line must be a line of its stdout,
//	                               in order, … matching any text
//	```sh ci                       each line is a line of .ci/run
//
// Snippets of one file share a home and a data folder (HOME and XDG_DATA_HOME in a temp dir), and
// run in a folder that links the repository's top-level entries, so `impl/lumo/demo/...` resolves
// and nothing is written into the clone. lumo and caderninho are built once, from this source, and
// come first on the PATH; `go run ./cmd/lumo` in a snippet runs that binary.
//
//	go test ./impl -run Docs                                  # SQLite; PostgreSQL snippets skip
//	LUMO_TEST_DB=postgres://... go test ./impl -run Docs      # every snippet

const repoRoot = ".."

// snippetTimeout bounds one snippet; the slowest loads the demo (a few seconds).
const snippetTimeout = 2 * time.Minute

// maxFrontPageLines keeps the README a page a newcomer reads in five minutes; the rest belongs in
// the guides.
const maxFrontPageLines = 250

// block is a fenced code block of a Markdown file.
type block struct {
	file  string
	line  int // of the opening fence, from 1
	lang  string
	flags []string
	body  string
}

func (b block) has(flag string) bool { return slices.Contains(b.flags, flag) }

// needs is the value of the block's needs= flag, or "".
func (b block) needs() string {
	for _, f := range b.flags {
		if v, ok := strings.CutPrefix(f, "needs="); ok {
			return v
		}
	}
	return ""
}

func (b block) String() string { return fmt.Sprintf("%s:%d", b.file, b.line) }

// markdownDoc is a Markdown file split into its fenced blocks and the text outside them.
type markdownDoc struct {
	path   string // relative to the repository, with slashes
	blocks []block
	text   []string // the lines outside fenced blocks, "" in place of each line of a block
}

var fenceLine = regexp.MustCompile("^( *)(```+|~~~+)(.*)$")

func parseMarkdown(path string, data []byte) markdownDoc {
	d := markdownDoc{path: path}
	var open *block
	var fence string
	var indent int
	var body []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		m := fenceLine.FindStringSubmatch(line)
		switch {
		case open == nil && m != nil:
			fields := strings.Fields(m[3])
			b := block{file: path, line: n}
			if len(fields) > 0 {
				b.lang, b.flags = fields[0], fields[1:]
			}
			open, fence, indent, body = &b, m[2], len(m[1]), nil
			d.text = append(d.text, "")
		case open != nil && m != nil && strings.HasPrefix(m[2], fence) && strings.TrimSpace(m[3]) == "":
			open.body = strings.Join(body, "\n") + "\n"
			d.blocks = append(d.blocks, *open)
			open = nil
			d.text = append(d.text, "")
		case open != nil:
			trimmed := line
			for i := 0; i < indent && strings.HasPrefix(trimmed, " "); i++ {
				trimmed = trimmed[1:]
			}
			body = append(body, trimmed)
			d.text = append(d.text, "")
		default:
			d.text = append(d.text, line)
		}
	}
	return d
}

// markdownFiles are the repository's Markdown documents: every *.md but those of hidden folders,
// testdata (fixtures) and node_modules.
func markdownFiles(t *testing.T) []markdownDoc {
	t.Helper()
	var docs []markdownDoc
	err := filepath.WalkDir(repoRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != repoRoot && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".md") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(repoRoot, p)
		docs = append(docs, parseMarkdown(filepath.ToSlash(rel), data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) < 5 {
		t.Fatalf("found %d Markdown files; the README, the guides and gen/docs make more", len(docs))
	}
	return docs
}

var (
	atxHeading = regexp.MustCompile(`^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$`)
	mdLink     = regexp.MustCompile(`!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)`)
	codeSpan   = regexp.MustCompile("(`+)[^`]*?(`+)")
)

// anchors are the #fragments GitHub gives the headings of d: the heading's text, lower case, without
// punctuation but - and _, spaces as -, and -1, -2... on repeats.
func (d markdownDoc) anchors() map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, line := range d.text {
		m := atxHeading.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		slug := githubSlug(m[2])
		if n := seen[slug]; n > 0 {
			out[fmt.Sprintf("%s-%d", slug, n)] = true
		} else {
			out[slug] = true
		}
		seen[slug]++
	}
	return out
}

func githubSlug(heading string) string {
	heading = mdLink.ReplaceAllString(heading, "$1") // a link's text stays
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsNumber(r) || unicode.Is(unicode.Pc, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestDocsLinksResolve: every relative link of every Markdown file names a file of the repository,
// and every #anchor a heading of its page.
func TestDocsLinksResolve(t *testing.T) {
	docs := markdownFiles(t)
	byPath := map[string]markdownDoc{}
	for _, d := range docs {
		byPath[d.path] = d
	}
	links := 0
	for _, d := range docs {
		for i, line := range d.text {
			line = codeSpan.ReplaceAllString(line, "")
			for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
				target := m[2]
				if target == "" || regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`).MatchString(target) {
					continue // a URL: not this test's business
				}
				links++
				where := fmt.Sprintf("%s:%d: [%s](%s)", d.path, i+1, m[1], target)
				file, anchor, _ := strings.Cut(target, "#")
				dest := d.path
				if file != "" {
					dest = filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(d.path), file)))
					if strings.HasPrefix(dest, "../") {
						t.Errorf("%s leads out of the repository", where)
						continue
					}
					if _, err := os.Stat(filepath.Join(repoRoot, dest)); err != nil {
						t.Errorf("%s: no such file %s", where, dest)
						continue
					}
				}
				if anchor == "" {
					continue
				}
				page, ok := byPath[dest]
				if !ok {
					t.Errorf("%s: an anchor into %s, which is no Markdown page", where, dest)
					continue
				}
				if !page.anchors()[anchor] {
					t.Errorf("%s: %s has no heading #%s", where, dest, anchor)
				}
			}
		}
	}
	if links < 50 {
		t.Errorf("checked %d relative links; the guides hold many more, so the parser misses some", links)
	}
}

// TestDocsLinkCheckerCatchesBreakage: the checker's parts find what they must.
func TestDocsLinkCheckerCatchesBreakage(t *testing.T) {
	d := parseMarkdown("x.md", []byte("# How `query` works\n\n## Relatórios (permalink)\n\n## Rate limits\n\n## Rate limits\n\n"+
		"```sh\n# not a heading\n```\n\n### `tables[].csv` sem `copyOf`\n\n### Connecting a [client](y.md)\n"))
	got := d.anchors()
	for _, want := range []string{"how-query-works", "relatórios-permalink", "rate-limits", "rate-limits-1", "tablescsv-sem-copyof", "connecting-a-client"} {
		if !got[want] {
			t.Errorf("anchor %q not found in %v", want, got)
		}
	}
	if got["not-a-heading"] {
		t.Error("a comment inside a fenced block was taken for a heading")
	}
	links := mdLink.FindAllStringSubmatch(codeSpan.ReplaceAllString("see [the guide](cmd/lumo/README.md#rollups) and `[x](not-a-link)`", ""), -1)
	if len(links) != 1 || links[0][2] != "cmd/lumo/README.md#rollups" {
		t.Errorf("links = %q", links)
	}
}

// TestDocsFrontPageIsShort: the README stays a front page; details go to the guides.
func TestDocsFrontPageIsShort(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(data, []byte("\n")); n > maxFrontPageLines {
		t.Errorf("README.md has %d lines, over %d: move the details to cmd/lumo/README.md, cmd/caderninho/README.md or cmd/README.md", n, maxFrontPageLines)
	}
}

// TestDocsTestCommandIsCIs: the command the README gives to run the tests is one .ci/run runs.
func TestDocsTestCommandIsCIs(t *testing.T) {
	ci, err := os.ReadFile(filepath.Join(repoRoot, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	ciLines := map[string]bool{}
	for _, l := range strings.Split(string(ci), "\n") {
		ciLines[strings.TrimSpace(l)] = true
	}
	found := 0
	for _, d := range markdownFiles(t) {
		for _, b := range d.blocks {
			if !b.has("ci") {
				continue
			}
			for _, l := range strings.Split(strings.TrimSpace(b.body), "\n") {
				found++
				if !ciLines[strings.TrimSpace(l)] {
					t.Errorf("%s: %q is not a command .ci/run runs", b, l)
				}
			}
		}
	}
	readme := parseMarkdown("README.md", mustRead(t, filepath.Join(repoRoot, "README.md")))
	if !slices.ContainsFunc(readme.blocks, func(b block) bool { return b.has("ci") && strings.Contains(b.body, "go test") }) {
		t.Error("README.md gives no test command marked ```sh ci")
	}
	if found == 0 {
		t.Error("no ```sh ci block found")
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDocsSnippetsRun runs every runnable snippet of every Markdown file, each file's in order
// against a fresh data folder, and checks the output blocks beside them.
func TestDocsSnippetsRun(t *testing.T) {
	var files []markdownDoc
	for _, d := range markdownFiles(t) {
		for _, b := range d.blocks {
			if b.has("runnable") {
				files = append(files, d)
				break
			}
		}
	}
	if len(files) < 4 {
		t.Fatalf("%d files hold runnable snippets; the README and the three guides do", len(files))
	}
	bin := buildServers(t)
	for _, d := range files {
		t.Run(d.path, func(t *testing.T) {
			t.Parallel()
			runSnippets(t, d, bin)
		})
	}
}

// buildServers builds lumo and caderninho from this source. They go to a folder of the user's cache
// that belongs to this clone, where go build finds them up to date and does not link them again
// (linking lumo, with DuckDB, takes seconds); a temp folder when there is no cache.
func buildServers(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if cache, err := os.UserCacheDir(); err == nil {
		sum := sha256.Sum256([]byte(root))
		bin = filepath.Join(cache, "lumo-caderninho-docs-test", hex.EncodeToString(sum[:8]))
		if err := os.MkdirAll(bin, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "build", "-o", bin+string(filepath.Separator), "./cmd/lumo", "./cmd/caderninho")
	cmd.Dir = root
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	t.Logf("built lumo and caderninho in %s into %s", time.Since(start).Round(time.Millisecond), bin)
	return bin
}

var goRun = regexp.MustCompile(`\bgo run \./cmd/(lumo|caderninho)\b`)

func runSnippets(t *testing.T, d markdownDoc, bin string) {
	tmp := t.TempDir()
	home, data, work := filepath.Join(tmp, "home"), filepath.Join(tmp, "data"), filepath.Join(tmp, "work")
	for _, dir := range []string{home, data, work} {
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".") {
			if err := os.Symlink(filepath.Join(root, e.Name()), filepath.Join(work, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	env := []string{"HOME=" + home, "XDG_DATA_HOME=" + data, "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"LANG=C.UTF-8", "TMPDIR=" + tmp}
	for i, b := range d.blocks {
		if !b.has("runnable") {
			continue
		}
		if b.lang != "sh" && b.lang != "bash" {
			t.Errorf("%s: a runnable block must be sh or bash, not %q", b, b.lang)
			continue
		}
		blockEnv := slices.Clone(env)
		switch need := b.needs(); need {
		case "":
		case "postgres":
			if !sqldbtest.IsPostgres() {
				t.Logf("%s: skipped: it needs PostgreSQL; set LUMO_TEST_DB=postgres://... to run it", b)
				continue
			}
			blockEnv = append(blockEnv, "DB="+sqldbtest.DSN(t, "docs.db"))
		case "network":
			t.Logf("%s: skipped: it needs the network, which tests do not use", b)
			continue
		default:
			t.Errorf("%s: unknown needs=%s (postgres or network)", b, need)
			continue
		}
		script := goRun.ReplaceAllString(b.body, "$1")
		ctx, cancel := context.WithTimeout(context.Background(), snippetTimeout)
		cmd := exec.CommandContext(ctx, "bash", "-e", "-o", "pipefail", "-c", script)
		cmd.Dir, cmd.Env = work, blockEnv
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		start := time.Now()
		err := cmd.Run()
		cancel()
		if err != nil {
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				err = fmt.Errorf("still running after %s", snippetTimeout)
			}
			t.Errorf("%s: %v\n--- snippet\n%s--- stdout\n%s--- stderr\n%s", b, err, b.body, &stdout, &stderr)
			return // the next snippets build on this one
		}
		t.Logf("%s: ran in %s", b, time.Since(start).Round(time.Millisecond))
		if i+1 < len(d.blocks) && d.blocks[i+1].has("output") {
			if missing := missingOutput(d.blocks[i+1].body, stdout.String()); missing != "" {
				t.Errorf("%s: the output shown at %s is not what the snippet prints: no line matches %q after the earlier ones\n--- stdout\n%s",
					b, d.blocks[i+1], missing, &stdout)
			}
		}
	}
	for i, b := range d.blocks {
		if b.has("output") && (i == 0 || !d.blocks[i-1].has("runnable")) {
			t.Errorf("%s: an output block must follow a runnable snippet", b)
		}
	}
}

// missingOutput returns the first line of want (… matching any text) that no line of got matches
// after the lines the earlier ones matched, or "".
func missingOutput(want, got string) string {
	lines := strings.Split(got, "\n")
	at := 0
	for _, w := range strings.Split(want, "\n") {
		w = strings.TrimRight(w, " ")
		if strings.TrimSpace(w) == "" {
			continue
		}
		parts := strings.Split(w, "…")
		for i := range parts {
			parts[i] = regexp.QuoteMeta(parts[i])
		}
		re := regexp.MustCompile("^" + strings.Join(parts, ".*") + "$")
		found := false
		for at < len(lines) {
			l := strings.TrimRight(lines[at], " ")
			at++
			if re.MatchString(l) {
				found = true
				break
			}
		}
		if !found {
			return w
		}
	}
	return ""
}

// TestDocsOutputMatching: the output check takes lines in order, with … for any text.
func TestDocsOutputMatching(t *testing.T) {
	got := "Escrevi /tmp/x/vendas/workspace.yaml e /tmp/x/vendas/app.yaml.\n\n1 Tabela:\n  Vendas (fato): vendas.csv\ntoken tok-abc (guarde)\n"
	for want, missing := range map[string]string{
		"Escrevi …/vendas/workspace.yaml e …/vendas/app.yaml.\n  Vendas (fato): vendas.csv\n": "",
		"token tok-… (guarde)":                   "",
		"  Vendas (fato): vendas.csv\n1 Tabela:": "1 Tabela:",                 // out of order
		"Vendas (fato): vendas.csv":              "Vendas (fato): vendas.csv", // a whole line, indentation included
	} {
		if got := missingOutput(want, got); got != missing {
			t.Errorf("missingOutput(%q) = %q, want %q", want, got, missing)
		}
	}
}
