package workspace

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
	"github.com/pierrec/lz4/v4"

	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// Limits on a Parquet file, checked on its footer and page headers before parquet-go allocates
// what they declare: parquet-go sizes its buffers from the declared sizes and counts (a page
// header saying 2 GiB, a thrift list saying two billion row groups), so a small hostile file
// could otherwise make it allocate gigabytes.
const (
	// maxFooterBytes bounds the footer (the schema and the row groups' metadata).
	maxFooterBytes = 64 << 20
	// maxPageBytes bounds one page, dictionary or data, compressed and uncompressed.
	maxPageBytes = 64 << 20
	// maxPageValues bounds the values of one page: parquet-go allocates its levels and
	// offsets from the count before decoding, and RLE writes millions of nulls in a few bytes.
	maxPageValues = 1 << 24
	// maxGroupHeld bounds what reading one row group holds at a time: per column read, its
	// dictionary and its largest page.
	maxGroupHeld = 256 << 20
	// maxHeaderBytes bounds one page header: its statistics hold the page's least and
	// greatest values, each up to MaxValueBytes in a file lumo reads.
	maxHeaderBytes = 16 << 20
	// maxParts bounds the part files of a folder.
	maxParts = 10000
)

// sizeWords is n bytes in Portuguese, rounded to a decimal: "64 MiB", "1,5 GiB".
func sizeWords(n uint64) string {
	units := []string{"bytes", "KiB", "MiB", "GiB"}
	v, u := float64(n), 0
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	s := strconv.FormatFloat(v, 'f', 1, 64)
	s = strings.TrimSuffix(s, ".0")
	return strings.Replace(s, ".", ",", 1) + " " + units[u]
}

// errThriftShort is a thrift value that goes past the bytes given: more may be needed.
var errThriftShort = errors.New("thrift value past the end")

// thriftCheck walks the compact-protocol struct at the start of b without allocating, checking
// that every list, map and binary declares no more than the bytes left (each item takes at
// least one byte), and returns its length. parquet-go's decoder makes slices of the declared
// sizes before reading them; what passes here it can decode without such an allocation.
func thriftCheck(b []byte) (int, error) {
	w := thriftWalker{b: b}
	if err := w.value(12, 0); err != nil {
		return 0, err
	}
	return w.i, nil
}

type thriftWalker struct {
	b []byte
	i int
}

func (w *thriftWalker) byte() (byte, error) {
	if w.i >= len(w.b) {
		return 0, errThriftShort
	}
	c := w.b[w.i]
	w.i++
	return c, nil
}

func (w *thriftWalker) uvarint() (uint64, error) {
	v, n := binary.Uvarint(w.b[w.i:])
	switch {
	case n == 0:
		return 0, errThriftShort
	case n < 0:
		return 0, errors.New("um varint inválido")
	}
	w.i += n
	return v, nil
}

// size reads a declared count of items each at least one byte long and checks it against
// the bytes left (a shorter buffer may be only the start of the value: errThriftShort).
func (w *thriftWalker) size() (int, error) {
	n, err := w.uvarint()
	if err != nil {
		return 0, err
	}
	if n > maxFooterBytes {
		return 0, fmt.Errorf("um tamanho thrift de %d", n)
	}
	if n > uint64(len(w.b)-w.i) {
		return 0, errThriftShort
	}
	return int(n), nil
}

func (w *thriftWalker) value(typ byte, depth int) error {
	if depth > 64 {
		return errors.New("valores thrift aninhados demais")
	}
	switch typ {
	case 1, 2: // booleans in a field header carry no byte
		return nil
	case 3:
		_, err := w.byte()
		return err
	case 4, 5, 6:
		_, err := w.uvarint()
		return err
	case 7:
		if len(w.b)-w.i < 8 {
			return errThriftShort
		}
		w.i += 8
		return nil
	case 8:
		n, err := w.size()
		w.i += n
		return err
	case 9, 10:
		h, err := w.byte()
		if err != nil {
			return err
		}
		n, elem := int(h>>4), h&0x0f
		if n == 15 {
			if n, err = w.size(); err != nil {
				return err
			}
		}
		for range n {
			if elem == 1 || elem == 2 { // a boolean in a list is a byte
				if _, err := w.byte(); err != nil {
					return err
				}
				continue
			}
			if err := w.value(elem, depth+1); err != nil {
				return err
			}
		}
		return nil
	case 11:
		n, err := w.size()
		if err != nil || n == 0 {
			return err
		}
		kv, err := w.byte()
		if err != nil {
			return err
		}
		for range n {
			for _, t := range []byte{kv >> 4, kv & 0x0f} {
				if t == 1 || t == 2 {
					if _, err := w.byte(); err != nil {
						return err
					}
				} else if err := w.value(t, depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	case 12:
		for {
			h, err := w.byte()
			if err != nil {
				return err
			}
			if h == 0 {
				return nil
			}
			if h>>4 == 0 { // a field id of its own
				if _, err := w.uvarint(); err != nil {
					return err
				}
			}
			if err := w.value(h&0x0f, depth+1); err != nil {
				return err
			}
		}
	}
	return fmt.Errorf("o tipo thrift %d", typ)
}

// checkFooter checks a Parquet file's frame and footer before parquet-go reads it: the magic
// bytes, a footer length inside the file and under maxFooterBytes, and a footer whose thrift
// sizes fit its bytes. It returns a Portuguese problem, "" for none.
func checkFooter(ra io.ReaderAt, size int64) string {
	const notParquet = "o arquivo não é Parquet (não começa nem termina com PAR1); gere-o de novo como Parquet ou use a extensão do formato que ele tem"
	if size < 12 {
		return notParquet
	}
	var head, tail [8]byte
	if _, err := ra.ReadAt(head[:4], 0); err != nil {
		return "o arquivo não pôde ser lido: " + err.Error()
	}
	if _, err := ra.ReadAt(tail[:], size-8); err != nil {
		return "o arquivo não pôde ser lido: " + err.Error()
	}
	if string(head[:4]) != "PAR1" || string(tail[4:]) != "PAR1" {
		if string(head[:4]) == "PAR1" {
			return "o arquivo Parquet está truncado (falta o rodapé com o esquema); copie-o de novo por inteiro"
		}
		if string(head[:4]) == "PARE" || string(tail[4:]) == "PARE" {
			return "o arquivo Parquet é criptografado, e o lumo não lê Parquet criptografado; gere-o sem criptografia"
		}
		return notParquet
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n > size-12 {
		return fmt.Sprintf("o rodapé do Parquet declara %s, mais que o arquivo; o arquivo está truncado ou corrompido: copie-o de novo", sizeWords(uint64(n)))
	}
	if n > maxFooterBytes {
		return fmt.Sprintf("o rodapé do Parquet tem %s, acima do limite de %s; divida o arquivo em partes menores", sizeWords(uint64(n)), sizeWords(maxFooterBytes))
	}
	footer := make([]byte, n)
	if _, err := ra.ReadAt(footer, size-8-n); err != nil {
		return "o arquivo não pôde ser lido: " + err.Error()
	}
	if _, err := thriftCheck(footer); err != nil {
		return "o rodapé do Parquet está corrompido (" + err.Error() + "); gere o arquivo de novo"
	}
	return ""
}

// chunkPages is what the page headers of a column chunk declare.
type chunkPages struct {
	dict    int64 // the dictionary's uncompressed bytes
	maxPage int64 // the largest data page's uncompressed bytes
}

// scanPages reads the page headers of column chunk cc (not the pages) and refuses a page over
// maxPageBytes or maxPageValues, a header over maxHeaderBytes, and pages past the chunk, before
// parquet-go allocates them. Reading headers only costs one small read per page.
func scanPages(ra io.ReaderAt, size int64, cc *format.ColumnChunk, inflate *inflater) (chunkPages, error) {
	var out chunkPages
	md := &cc.MetaData
	start := md.DataPageOffset
	if md.DictionaryPageOffset > 0 && md.DictionaryPageOffset < start {
		start = md.DictionaryPageOffset
	}
	end := start + md.TotalCompressedSize
	if start < 4 || md.TotalCompressedSize < 0 || end > size-8 || end < start {
		return out, fmt.Errorf("a coluna ocupa os bytes %d a %d, fora do arquivo de %d bytes", start, end, size)
	}
	var proto thrift.CompactProtocol
	buf := make([]byte, 256)
	var values int64
	for off := start; off < end && values < md.NumValues; {
		var h format.PageHeader
		var n int
		for want := 256; ; want *= 8 {
			m := int(min(int64(want), end-off, maxHeaderBytes))
			if cap(buf) < m {
				buf = make([]byte, m)
			}
			buf = buf[:m]
			if _, err := ra.ReadAt(buf, off); err != nil && err != io.EOF {
				return out, err
			}
			var err error
			n, err = thriftCheck(buf)
			if err == nil {
				break
			}
			if err != errThriftShort || int64(m) == end-off {
				return out, fmt.Errorf("o cabeçalho de uma página está corrompido (%v)", err)
			}
			if m == maxHeaderBytes {
				return out, fmt.Errorf("o cabeçalho de uma página passa de %s", sizeWords(maxHeaderBytes))
			}
		}
		if err := thrift.NewDecoder(proto.NewReaderFromBytes(buf[:n])).Decode(&h); err != nil {
			return out, fmt.Errorf("o cabeçalho de uma página está corrompido (%v)", err)
		}
		comp, uncomp := int64(h.CompressedPageSize), int64(h.UncompressedPageSize)
		if comp < 0 || uncomp < 0 {
			return out, errors.New("uma página declara um tamanho negativo")
		}
		if comp > maxPageBytes || uncomp > maxPageBytes {
			return out, fmt.Errorf("uma página declara %s, acima do limite de %s por página", sizeWords(uint64(max(comp, uncomp))), sizeWords(maxPageBytes))
		}
		data := off + int64(n)
		if data+comp > end {
			return out, errors.New("uma página passa do fim da coluna (o arquivo está truncado ou corrompido)")
		}
		var count int64
		compressedAt := data // where the compressed bytes start
		compressed := md.Codec != format.Uncompressed
		switch h.Type {
		case format.DictionaryPage:
			count = int64(h.DictionaryPageHeader.V.NumValues)
			if count > maxPageValues {
				return out, fmt.Errorf("o dicionário declara %s valores, acima do limite de %s", ptbr.Int(count), ptbr.Int(maxPageValues))
			}
			out.dict += uncomp
			count = 0 // not rows
		case format.DataPage:
			count = int64(h.DataPageHeader.V.NumValues)
		case format.DataPageV2:
			v2 := &h.DataPageHeaderV2.V
			count = int64(v2.NumValues)
			compressedAt += int64(v2.RepetitionLevelsByteLength) + int64(v2.DefinitionLevelsByteLength)
			compressed = compressed && (!v2.IsCompressed.Valid || v2.IsCompressed.V)
		}
		if count < 0 || count > maxPageValues {
			return out, fmt.Errorf("uma página declara %s valores, acima do limite de %s", ptbr.Int(count), ptbr.Int(maxPageValues))
		}
		if h.Type != format.DictionaryPage {
			out.maxPage = max(out.maxPage, uncomp)
		}
		values += count
		switch {
		case !compressed || compressedAt >= data+comp:
		case md.Codec == format.Snappy:
			// Snappy sizes its output from the length at the start of the block, not from
			// the page header: check that one too.
			var v [binary.MaxVarintLen32]byte
			k, _ := ra.ReadAt(v[:min(int64(len(v)), data+comp-compressedAt)], compressedAt)
			if l, m := binary.Uvarint(v[:k]); m <= 0 || l > maxPageBytes {
				return out, fmt.Errorf("uma página Snappy declara %s descompactados, acima do limite de %s por página", sizeWords(l), sizeWords(maxPageBytes))
			}
		default:
			// parquet-go's Gzip, Brotli and Zstd codecs grow their output until the stream
			// ends, and its LZ4 codec doubles it for as long as a block fails: a bomb or a
			// damaged page would exhaust memory. Decompressing the page here first, bounded
			// by its declared size, refuses both (at the cost of a second decompression).
			if err := inflate.check(ra, md.Codec, compressedAt, data+comp-compressedAt, uncomp); err != nil {
				return out, err
			}
		}
		off = data + comp
	}
	return out, nil
}

// inflater decompresses pages to check them (scanPages), reusing its buffers and decoders.
type inflater struct {
	src, dst []byte
	zstd     *zstd.Decoder
}

// check decompresses the n bytes at off, compressed with codec, and refuses them when they
// are not a valid stream or expand past limit bytes.
func (f *inflater) check(ra io.ReaderAt, codec format.CompressionCodec, off, n, limit int64) error {
	if int64(cap(f.src)) < n {
		f.src = make([]byte, n)
	}
	src := f.src[:n]
	if _, err := ra.ReadAt(src, off); err != nil && err != io.EOF {
		return err
	}
	var r io.Reader
	switch codec {
	case format.Lz4Raw:
		if int64(cap(f.dst)) < limit {
			f.dst = make([]byte, limit)
		}
		if _, err := lz4.UncompressBlock(src, f.dst[:limit]); err != nil {
			return fmt.Errorf("uma página LZ4 não se descompacta nos %s que declara (%v)", sizeWords(uint64(limit)), err)
		}
		return nil
	case format.Gzip:
		zr, err := gzip.NewReader(bytes.NewReader(src))
		if err != nil {
			return fmt.Errorf("uma página Gzip está corrompida (%v)", err)
		}
		r = zr
	case format.Brotli:
		r = brotli.NewReader(bytes.NewReader(src))
	case format.Zstd:
		if f.zstd == nil {
			d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(maxPageBytes+1))
			if err != nil {
				return err
			}
			f.zstd = d
		}
		if err := f.zstd.Reset(bytes.NewReader(src)); err != nil {
			return fmt.Errorf("uma página Zstd está corrompida (%v)", err)
		}
		r = f.zstd
	default:
		return nil
	}
	got, err := io.Copy(io.Discard, io.LimitReader(r, limit+1))
	if err != nil {
		return fmt.Errorf("uma página %s está corrompida (%v)", codec, err)
	}
	if got > limit {
		return fmt.Errorf("uma página %s se descompacta em mais que os %s que declara (uma bomba de descompactação)", codec, sizeWords(uint64(limit)))
	}
	return nil
}

// close releases the Zstd decoder.
func (f *inflater) close() {
	if f.zstd != nil {
		f.zstd.Close()
		f.zstd = nil
	}
}
