package report

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"testing"

	"github.com/locksim/locksim/internal/report/chart"
)

func TestEncodePNGWritesWhatItWasGiven(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	opaque := image.NewRGBA(image.Rect(0, 0, 123, 77))
	for i := range opaque.Pix {
		opaque.Pix[i] = byte(rng.IntN(256))
		if i%4 == 3 {
			opaque.Pix[i] = 255
		}
	}
	clear := image.NewRGBA(image.Rect(0, 0, 9, 5))
	clear.Set(2, 2, color.RGBA{40, 0, 0, 128})
	offset := opaque.SubImage(image.Rect(10, 20, 60, 70)).(*image.RGBA)
	tests := []struct {
		name string
		img  *image.RGBA
	}{
		{"an opaque canvas decodes to the same pixels", opaque},
		{"a sub-image decodes to its own pixels", offset},
		{"an image with a translucent pixel decodes to the same colours", clear},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := chart.EncodePNG(&b, tt.img); err != nil {
				t.Fatal(err)
			}
			got, err := png.Decode(&b)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			r := tt.img.Bounds()
			if got.Bounds().Dx() != r.Dx() || got.Bounds().Dy() != r.Dy() {
				t.Fatalf("bounds %v, want the size of %v", got.Bounds(), r)
			}
			for y := 0; y < r.Dy(); y++ {
				for x := 0; x < r.Dx(); x++ {
					w := color.NRGBAModel.Convert(tt.img.At(r.Min.X+x, r.Min.Y+y))
					g := color.NRGBAModel.Convert(got.At(got.Bounds().Min.X+x, got.Bounds().Min.Y+y))
					if w != g {
						t.Fatalf("pixel (%d,%d) = %v, want %v", x, y, g, w)
					}
				}
			}
		})
	}
}
