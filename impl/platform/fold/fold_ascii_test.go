package fold

import "testing"

func TestASCIIShortcutMatchesUnicodeFold(t *testing.T) {
	for _, s := range []string{"", " ", "abc", "ABC", " a  b ", "a\tb\nc\rd\ve\ff", "Maria A. Silva", "x ", " x", "a b",
		"São João", "ÀÉÎ", "a\u00a0b", "zZ09_-.,", "\x85", "\x7f"} {
		if got, want := Fold(s), foldUnicode(s); got != want {
			t.Errorf("Fold(%q) = %q, want %q", s, got, want)
		}
	}
}

// Every rune the Latin table knows, alone and between others, folds as the full algorithm does.
func TestLatinShortcutMatchesUnicodeFold(t *testing.T) {
	for r := rune(0x80); r < latinEnd+0x10; r++ {
		for _, s := range []string{string(r), "A" + string(r) + "b", " " + string(r) + " É ", string(r) + string(r), string(r) + "\u0301"} {
			if got, want := Fold(s), foldUnicode(s); got != want {
				t.Errorf("Fold(%q) = %q, want %q", s, got, want)
			}
		}
	}
	for _, s := range []string{"São  João", "  ÁGUA\u00a0Viva ", "Luíza\u0085", "ǖ ǅ İ ß Æ", "a\xffb", "Ωmega ã", "ção\u0300"} {
		if got, want := Fold(s), foldUnicode(s); got != want {
			t.Errorf("Fold(%q) = %q, want %q", s, got, want)
		}
	}
}

func BenchmarkFoldLatin(b *testing.B) {
	for range b.N {
		Fold("Sérgio Conceição")
	}
}

func FuzzASCIIShortcut(f *testing.F) {
	f.Add("  Hello\tWORLD ")
	f.Add("São\u00a0JOÃO ǖ")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Fold(s), foldUnicode(s); got != want {
			t.Errorf("Fold(%q) = %q, want %q", s, got, want)
		}
	})
}

func BenchmarkFoldLatinReference(b *testing.B) {
	for range b.N {
		foldUnicode("Sérgio Conceição")
	}
}
