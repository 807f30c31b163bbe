// Command floorapp is the floor under P4 (start-up) in `make bench`: the
// least a Wails v2 app can do, a window of Gatehouse's size and background
// showing one line of text. It is built with the production binary's tags
// and flags (the Makefile's PROD_TAGS and PROD_LDFLAGS) and started the same
// way in the same run, so Gatehouse's time to its server list drawn can be
// read as a ratio to the time any Wails window needs to draw a page.
//
// The line is where Gatehouse draws its first server card's name (bench/
// window_bench_test.go's nameProbe), so one probe reads both windows.
package main

import (
	"embed"
	"io/fs"
	"log"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
)

//go:embed page
var page embed.FS

func main() {
	assets, err := fs.Sub(page, "page")
	if err != nil {
		log.Fatal(err)
	}
	err = wails.Run(&options.App{
		Title:            "Floor",
		Width:            1100, // Gatehouse's first-start size (app/window.go)
		Height:           760,
		BackgroundColour: &options.RGBA{R: 0xf6, G: 0xf7, B: 0xf9, A: 255}, // its light background (app/theme.go)
		AssetServer:      &assetserver.Options{Assets: assets},
	})
	if err != nil {
		log.Fatal(err)
	}
}
