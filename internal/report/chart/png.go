package chart

import (
	"bufio"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/png"
	"io"
)

// pngEncoder is the standard library's encoder at zlib's best speed, for
// an image that is not an opaque *image.RGBA.
var pngEncoder = png.Encoder{CompressionLevel: png.BestSpeed}

// encodePNG writes img as a PNG. An opaque *image.RGBA (every plot: it is
// drawn on white) is written as 8-bit truecolour with every row filtered
// by Up (PNG specification, ISO/IEC 15948 §9.2, filter type 2: each byte
// minus the one above it) and deflated at zlib's best speed: image/png
// tries all five filters on every row to pick one, about half of its
// time on these flat canvases, for files about 5% smaller (a 1600×900
// timeline: 224 KB against 208 KB). Anything else goes through image/png.
func EncodePNG(w io.Writer, img image.Image) error {
	m, ok := img.(*image.RGBA)
	if !ok || !m.Opaque() || m.Rect.Empty() {
		return pngEncoder.Encode(w, img)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	if _, err := bw.WriteString("\x89PNG\r\n\x1a\n"); err != nil {
		return err
	}
	width, height := m.Rect.Dx(), m.Rect.Dy()
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(width))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(height))
	ihdr[8], ihdr[9] = 8, 2 // bit depth 8, colour type 2 (RGB)
	if err := writeChunk(bw, "IHDR", ihdr[:]); err != nil {
		return err
	}
	idat := &idatWriter{w: bw, buf: make([]byte, 0, 64<<10)}
	zw, err := zlib.NewWriterLevel(idat, zlib.BestSpeed)
	if err != nil {
		return err
	}
	const bpp = 3
	row := make([]byte, 1+width*bpp)
	row[0] = 2 // Up
	var prev []byte
	for y := 0; y < height; y++ {
		pix := m.Pix[y*m.Stride : y*m.Stride+width*4]
		for x, o := 0, 1; x < width; x, o = x+1, o+bpp {
			r, g, b := pix[4*x], pix[4*x+1], pix[4*x+2]
			if prev != nil {
				r, g, b = r-prev[4*x], g-prev[4*x+1], b-prev[4*x+2]
			}
			row[o], row[o+1], row[o+2] = r, g, b
		}
		prev = pix
		if _, err := zw.Write(row); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := idat.flush(); err != nil {
		return err
	}
	if err := writeChunk(bw, "IEND", nil); err != nil {
		return err
	}
	return bw.Flush()
}

// writeChunk writes one PNG chunk: length, type, data and the CRC of
// type and data.
func writeChunk(w io.Writer, typ string, data []byte) error {
	var head [8]byte
	binary.BigEndian.PutUint32(head[:4], uint32(len(data)))
	copy(head[4:], typ)
	crc := crc32.NewIEEE()
	crc.Write(head[4:])
	crc.Write(data)
	var tail [4]byte
	binary.BigEndian.PutUint32(tail[:], crc.Sum32())
	for _, b := range [][]byte{head[:], data, tail[:]} {
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// idatWriter cuts the zlib stream into IDAT chunks of its buffer's size.
type idatWriter struct {
	w   io.Writer
	buf []byte
}

func (d *idatWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		k := min(len(p), cap(d.buf)-len(d.buf))
		d.buf = append(d.buf, p[:k]...)
		p = p[k:]
		if len(d.buf) == cap(d.buf) {
			if err := d.flush(); err != nil {
				return 0, err
			}
		}
	}
	return n, nil
}

func (d *idatWriter) flush() error {
	if len(d.buf) == 0 {
		return nil
	}
	err := writeChunk(d.w, "IDAT", d.buf)
	d.buf = d.buf[:0]
	return err
}
