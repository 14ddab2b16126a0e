package report

import (
	"fmt"
	"image/color"
	"math"
	"testing"

	"github.com/locksim/locksim/internal/report/chart"
)

// Colour-vision deficiency simulation: Machado, Oliveira and Fernandes,
// "A Physiologically-based Model for Simulation of Color Vision
// Deficiency" (IEEE TVCG 2009), severity 1.0, applied to linear sRGB.
var cvdMatrices = []struct {
	name string
	m    [3][3]float64
}{
	{"protanopia", [3][3]float64{{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}}},
	{"deuteranopia", [3][3]float64{{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}}},
	{"tritanopia", [3][3]float64{{1.255528, -0.076749, -0.178779}, {-0.078411, 0.930809, 0.147602}, {0.004733, 0.691367, 0.303900}}},
}

func toLinear(v uint8) float64 {
	c := float64(v) / 255
	if c <= 0.04045 {
		return c / 12.92
	}
	return math.Pow((c+0.055)/1.055, 2.4)
}

// simulate is c as a reader with the deficiency m sees it, in linear sRGB.
func simulate(c color.NRGBA, m [3][3]float64) [3]float64 {
	in := [3]float64{toLinear(c.R), toLinear(c.G), toLinear(c.B)}
	var out [3]float64
	for i := range 3 {
		for j := range 3 {
			out[i] += m[i][j] * in[j]
		}
		out[i] = min(1, max(0, out[i]))
	}
	return out
}

// lab is CIE L*a*b* (D65) of a linear sRGB colour.
func lab(rgb [3]float64) [3]float64 {
	x := 0.4124*rgb[0] + 0.3576*rgb[1] + 0.1805*rgb[2]
	y := 0.2126*rgb[0] + 0.7152*rgb[1] + 0.0722*rgb[2]
	z := 0.0193*rgb[0] + 0.1192*rgb[1] + 0.9505*rgb[2]
	f := func(t float64) float64 {
		if t > 216.0/24389 {
			return math.Cbrt(t)
		}
		return (24389.0/27*t + 16) / 116
	}
	fx, fy, fz := f(x/0.95047), f(y), f(z/1.08883)
	return [3]float64{116*fy - 16, 500 * (fx - fy), 200 * (fy - fz)}
}

// deltaE is the CIE76 distance of two colours as the deficiency m sees them.
func deltaE(a, b color.NRGBA, m [3][3]float64) float64 {
	p, q := lab(simulate(a, m)), lab(simulate(b, m))
	return math.Sqrt((p[0]-q[0])*(p[0]-q[0]) + (p[1]-q[1])*(p[1]-q[1]) + (p[2]-q[2])*(p[2]-q[2]))
}

// TestClientColoursStayApartForColourBlindReaders checks the one place
// where colour alone tells two things apart: which client holds a lock,
// and whose key a node holds, are told by the client's colour (its lane
// and the tip say it too, but a projected slide is read at a glance).
// Every two client colours stay ≥ 12 ΔE apart (CIE76; about 2.3 is a just
// noticeable difference) as protanopes, deuteranopes and tritanopes see
// them, and so do their lighter key-on-node fills.
func TestClientColoursStayApartForColourBlindReaders(t *testing.T) {
	const minDE = 12
	n := len(chart.ClientPalette)
	for _, cvd := range cvdMatrices {
		for i := range n {
			for j := i + 1; j < n; j++ {
				a, b := chart.ClientPalette[i], chart.ClientPalette[j]
				t.Run(fmt.Sprintf("client colours %d and %d stay apart under %s", i, j, cvd.name), func(t *testing.T) {
					if d := deltaE(a, b, cvd.m); d < minDE {
						t.Errorf("ΔE %.1f < %d between %v and %v", d, minDE, a, b)
					}
					if d := deltaE(chart.Lighter(a), chart.Lighter(b), cvd.m); d < minDE/2 {
						t.Errorf("key fills: ΔE %.1f < %d between %v and %v", d, minDE/2, chart.Lighter(a), chart.Lighter(b))
					}
				})
			}
		}
	}
	t.Run("a colour is not apart from itself (the measure can fail)", func(t *testing.T) {
		if d := deltaE(chart.ClientPalette[0], chart.ClientPalette[0], cvdMatrices[0].m); d != 0 {
			t.Errorf("ΔE %.2f", d)
		}
		// Red and green, the pair deuteranopes confuse, come out close.
		if d := deltaE(color.NRGBA{200, 60, 40, 255}, color.NRGBA{110, 130, 30, 255}, cvdMatrices[1].m); d >= minDE {
			t.Errorf("a confusable red and green are %.1f apart under deuteranopia", d)
		}
	})
}
