package notify

import (
	"bytes"
	"fmt"
	"image"
	"image/draw"
	"image/png"
)

// An Image is a picture as the notification service takes it in the
// "image-data" hint: 8-bit RGBA, not premultiplied, rows one after another.
type Image struct {
	Width, Height int
	// Pixels holds Width×Height pixels of 4 bytes (red, green, blue, alpha).
	Pixels []byte
}

// ImageFromPNG decodes a PNG into an Image.
func ImageFromPNG(b []byte) (*Image, error) {
	src, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("reading the notification icon: %w", err)
	}
	bounds := src.Bounds()
	rgba := image.NewNRGBA(image.Rect(0, 0, bounds.Dx(), bounds.Dy()))
	if nrgba, ok := src.(*image.NRGBA); ok {
		// Copied as they are: drawing would go through premultiplied
		// colours and change the half-transparent edge pixels.
		for y := range bounds.Dy() {
			copy(rgba.Pix[y*rgba.Stride:(y+1)*rgba.Stride], nrgba.Pix[nrgba.PixOffset(bounds.Min.X, bounds.Min.Y+y):])
		}
	} else {
		draw.Draw(rgba, rgba.Bounds(), src, bounds.Min, draw.Src)
	}
	return &Image{Width: bounds.Dx(), Height: bounds.Dy(), Pixels: rgba.Pix}, nil
}

// imageData is the "image-data" hint's D-Bus structure, (iiibiiay): width,
// height, row stride, has alpha, bits per sample, channels, and the bytes.
type imageData struct {
	Width, Height, Rowstride int32
	HasAlpha                 bool
	BitsPerSample, Channels  int32
	Data                     []byte
}

func (img *Image) hint() imageData {
	return imageData{Width: int32(img.Width), Height: int32(img.Height), Rowstride: int32(img.Width * 4),
		HasAlpha: true, BitsPerSample: 8, Channels: 4, Data: img.Pixels}
}
