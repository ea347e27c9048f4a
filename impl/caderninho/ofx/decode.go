package ofx

import (
	"bytes"
	"encoding/binary"
	"regexp"
	"strings"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
)

var (
	sgmlHeaderField = regexp.MustCompile(`([A-Z]+):([^\s<]*)`)
	xmlEncoding     = regexp.MustCompile(`(?i)encoding\s*=\s*["']([^"']*)["']`)
)

// decode turns the file into UTF-8 text, following its header: OFX 1.x says ENCODING and
// CHARSET (CHARSET:1252 is Windows-1252), OFX 2.x says the XML declaration's encoding. Newlines
// are kept, so line numbers in the text are the file's.
func decode(data []byte) (string, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	start := bytes.IndexByte(data, '<')
	if start < 0 {
		return "", errorf(0, "não é um arquivo OFX: não há nenhuma tag")
	}
	var enc, cs string
	head := string(data[:start])
	if bytes.HasPrefix(bytes.TrimSpace(data[start:]), []byte("<?")) {
		// OFX 2.x: the XML declaration (if any) names the encoding.
		end := bytes.Index(data[start:], []byte("?>"))
		if end > 0 {
			if m := xmlEncoding.FindSubmatch(data[start : start+end]); m != nil {
				enc = string(m[1])
			}
		}
		if enc == "" {
			enc = "UTF-8"
		}
	} else {
		if strings.TrimSpace(head) != "" && !strings.Contains(head, "OFXHEADER") {
			return "", errorf(1, "não é um arquivo OFX: o cabeçalho não tem OFXHEADER")
		}
		for _, m := range sgmlHeaderField.FindAllStringSubmatch(head, -1) {
			switch m[1] {
			case "ENCODING":
				enc = m[2]
			case "CHARSET":
				cs = m[2]
			}
		}
	}
	dec, err := decoder(strings.ToUpper(enc), strings.ToUpper(cs))
	if err != nil {
		return "", err
	}
	var text string
	if dec != nil && ascii(data) {
		// Every supported charset writes ASCII as ASCII: no decoded copy of a large file.
		dec = nil
	}
	if dec == nil {
		if !utf8.Valid(data) {
			// Banks often declare UTF-8 (or nothing) and write Windows-1252: read it as such
			// rather than garble the accents.
			dec = charmap.Windows1252.NewDecoder()
		} else {
			text = unsafe.String(unsafe.SliceData(data), len(data)) // not a copy: Open's data stays as it is
		}
	}
	if dec != nil {
		b, err := dec.Bytes(data)
		if err != nil {
			return "", errorf(0, "o texto não pôde ser decodificado (%s %s)", enc, cs)
		}
		text = unsafe.String(unsafe.SliceData(b), len(b))
	}
	if i := strings.IndexByte(text, 0); i >= 0 {
		return "", errorf(1+strings.Count(text[:i], "\n"), "o arquivo tem um byte nulo; não é texto OFX")
	}
	return text, nil
}

// decoder picks the decoder of an ENCODING/CHARSET pair; nil means UTF-8 (or ASCII).
func decoder(enc, cs string) (*encoding.Decoder, error) {
	switch enc {
	case "UTF-8", "UTF8":
		return nil, nil
	case "WINDOWS-1252", "CP1252":
		return charmap.Windows1252.NewDecoder(), nil
	case "ISO-8859-1", "LATIN1", "LATIN-1":
		return charmap.ISO8859_1.NewDecoder(), nil
	case "ISO-8859-15":
		return charmap.ISO8859_15.NewDecoder(), nil
	case "", "USASCII", "US-ASCII", "ASCII":
	default:
		return nil, errorf(0, "ENCODING %q não é suportado (use USASCII com CHARSET 1252 ou UTF-8)", enc)
	}
	switch cs {
	case "1252", "WINDOWS-1252", "CP1252":
		return charmap.Windows1252.NewDecoder(), nil
	case "8859-1", "ISO-8859-1", "ISO8859-1", "28591", "LATIN1":
		return charmap.ISO8859_1.NewDecoder(), nil
	case "8859-15", "ISO-8859-15":
		return charmap.ISO8859_15.NewDecoder(), nil
	case "850":
		return charmap.CodePage850.NewDecoder(), nil
	case "437":
		return charmap.CodePage437.NewDecoder(), nil
	case "", "NONE", "UTF-8", "UTF8":
		return nil, nil
	}
	return nil, errorf(0, "CHARSET %q não é suportado (use 1252, ISO-8859-1 ou UTF-8)", cs)
}

// ascii reports whether b is 7-bit only.
func ascii(b []byte) bool {
	for len(b) >= 8 {
		if binary.LittleEndian.Uint64(b)&0x8080808080808080 != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}
