package icon

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"io/fs"
	"os"
	"regexp"
	"testing"
)

func TestEachSizeIsAValidSquarePNGOfThatSize(t *testing.T) {
	for _, size := range Sizes {
		t.Run(fmt.Sprintf("%d px", size), func(t *testing.T) {
			b, err := PNG(size)
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(b))
			if err != nil {
				t.Fatalf("not a valid PNG: %v", err)
			}
			if got := img.Bounds().Size(); got != (image.Point{X: size, Y: size}) {
				t.Errorf("the %d px icon is %v", size, got)
			}
			// The rounded corners are transparent and the middle is drawn: the
			// PNG was rendered from the drawing, not left empty.
			if _, _, _, a := img.At(0, 0).RGBA(); a != 0 {
				t.Errorf("the top-left corner is not transparent (alpha %d)", a)
			}
			if _, _, _, a := img.At(size/2, size/5).RGBA(); a != 0xffff {
				t.Errorf("the middle is not opaque (alpha %d)", a)
			}
		})
	}
}

func TestThePNGsAreExactlyTheSizesAndRenderedFromTheCurrentSVG(t *testing.T) {
	names, err := fs.Glob(files, "png/*.png")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, size := range Sizes {
		want[fmt.Sprintf("png/gatehouse-%d.png", size)] = true
	}
	for _, name := range names {
		if !want[name] {
			t.Errorf("%s is not one of the sizes %v: remove it, or add its size to Sizes and scripts/icons.sh", name, Sizes)
		}
	}
	if len(names) != len(Sizes) {
		t.Errorf("%d PNGs for the %d sizes %v", len(names), len(Sizes), Sizes)
	}
	if recorded, now := renderedFrom(); recorded != now {
		t.Errorf("the PNGs were rendered from another gatehouse.svg (%.12s…, now %.12s…): run scripts/icons.sh", recorded, now)
	}
}

func TestTheSVGIsSquareAndTheScriptRendersEverySize(t *testing.T) {
	svg := string(SVG())
	if !regexp.MustCompile(`<svg[^>]*viewBox="0 0 16 16"`).MatchString(svg) {
		t.Errorf("gatehouse.svg is not drawn on the square 16-unit grid")
	}
	script, err := os.ReadFile("../scripts/icons.sh")
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("for size in %s; do", regexp.MustCompile(`[\[\]]`).ReplaceAllString(fmt.Sprint(Sizes), "")); !bytes.Contains(script, []byte(want)) {
		t.Errorf("scripts/icons.sh does not render the sizes %v (want the line %q)", Sizes, want)
	}
	if _, err := PNG(WindowSize); err != nil {
		t.Errorf("the window's icon size: %v", err)
	}
	if _, err := PNG(20); err == nil {
		t.Error("PNG(20) gave an icon; there is no 20 px one")
	}
}
