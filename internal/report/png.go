package report

import (
	"image"
	"image/png"
	"io"
)

// pngEncoder favours speed over size: the plots are large flat-colour
// canvases, where zlib's best-speed level costs a fraction of the default
// level's time for files only slightly larger.
var pngEncoder = png.Encoder{CompressionLevel: png.BestSpeed}

// encodePNG writes img as a PNG with the standard library's encoder.
func encodePNG(w io.Writer, img image.Image) error {
	return pngEncoder.Encode(w, img)
}
