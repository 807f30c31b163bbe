#!/bin/sh
# Renders Gatehouse's icon, icon/gatehouse.svg, to the PNGs beside it (one
# per size in icon.Sizes) and records the SVG's SHA-256 in icon/png/SOURCE,
# so a test notices PNGs that were not rendered again after the SVG changed.
# Needs rsvg-convert (Debian: librsvg2-bin). Run it after editing the SVG
# and commit the PNGs: the build embeds them and does not need rsvg-convert.
set -eu
cd "$(dirname "$0")/../icon"
command -v rsvg-convert >/dev/null || { echo "icons.sh: rsvg-convert is missing: apt-get install librsvg2-bin" >&2; exit 1; }
mkdir -p png
for size in 16 32 48 64 128 256 512; do
	rsvg-convert --width "$size" --height "$size" --format png gatehouse.svg --output "png/gatehouse-$size.png"
done
sha256sum gatehouse.svg | cut -d' ' -f1 > png/SOURCE
echo "icons.sh: rendered $(ls png/*.png | wc -l) PNGs from icon/gatehouse.svg"
