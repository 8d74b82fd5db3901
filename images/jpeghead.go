package images

import "encoding/binary"

// jpegHead is what decodeGray needs from a JPEG's header segments before it
// decodes the pixels: how the camera held the picture, and how much memory
// the standard library's decoder will take for it.
type jpegHead struct {
	// Orientation is the EXIF orientation tag (1 to 8; 0 when absent or
	// unreadable): how the stored rows and columns map to the scene.
	Orientation int
	// Progressive is true for a progressive JPEG (SOF2), whose decoder keeps
	// every DCT coefficient of the whole picture until the last scan.
	Progressive bool
	// Samples is the number of samples per picture pixel over all
	// components, after chroma subsampling: 1 for grey, 1.5 for 4:2:0
	// colour, 3 for 4:4:4 (0 if no frame header was found).
	Samples float64
}

// readJPEGHead reads the segments of a JPEG stream up to its frame header
// (SOFn) from b, which need not hold the whole file. It never fails: what it
// cannot read is left zero, and the decoder reports real damage.
func readJPEGHead(b []byte) jpegHead {
	var h jpegHead
	if len(b) < 2 || b[0] != 0xff || b[1] != 0xd8 {
		return h
	}
	for p := 2; p+4 <= len(b); {
		if b[p] != 0xff {
			return h
		}
		marker := b[p+1]
		if marker == 0xff { // fill byte
			p++
			continue
		}
		if marker == 0xd8 || marker == 0x01 || marker >= 0xd0 && marker <= 0xd7 {
			p += 2 // markers without a length
			continue
		}
		size := int(binary.BigEndian.Uint16(b[p+2:]))
		if size < 2 {
			return h
		}
		end := min(p+2+size, len(b))
		seg := b[p+4 : end]
		switch {
		case marker == 0xe1 && h.Orientation == 0:
			h.Orientation = exifOrientation(seg)
		case marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc:
			h.Progressive = marker == 0xc2 || marker == 0xc6 || marker == 0xca || marker == 0xce
			h.Samples = frameSamples(seg)
			return h // the frame header ends what the header tells
		case marker == 0xda || marker == 0xd9:
			return h
		}
		p += 2 + size
	}
	return h
}

// frameSamples returns the samples per pixel of a frame header's payload:
// Σ over components of (Hᵢ·Vᵢ)/(Hmax·Vmax).
func frameSamples(seg []byte) float64 {
	if len(seg) < 6 {
		return 0
	}
	n := int(seg[5])
	if n == 0 || len(seg) < 6+3*n {
		return 0
	}
	var hmax, vmax int
	for i := range n {
		f := seg[6+3*i+1]
		hmax, vmax = max(hmax, int(f>>4)), max(vmax, int(f&15))
	}
	if hmax == 0 || vmax == 0 {
		return 0
	}
	var s float64
	for i := range n {
		f := seg[6+3*i+1]
		s += float64(int(f>>4)*int(f&15)) / float64(hmax*vmax)
	}
	return s
}

// exifOrientation returns the Orientation tag (0x0112) of IFD0 in an APP1
// segment's payload ("Exif\0\0" and a TIFF header), or 0.
func exifOrientation(seg []byte) int {
	if len(seg) < 14 || string(seg[:6]) != "Exif\x00\x00" {
		return 0
	}
	t := seg[6:] // offsets in the TIFF structure count from here
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return 0
	}
	if bo.Uint16(t[2:]) != 42 {
		return 0
	}
	ifd := int(bo.Uint32(t[4:]))
	if ifd < 8 || ifd > len(t)-2 {
		return 0
	}
	n := int(bo.Uint16(t[ifd:]))
	for i := range n {
		e := ifd + 2 + 12*i
		if e+12 > len(t) {
			return 0
		}
		if bo.Uint16(t[e:]) != 0x0112 {
			continue
		}
		// Type SHORT (3), count 1: the value sits in the first two bytes
		// of the value field.
		if bo.Uint16(t[e+2:]) != 3 || bo.Uint32(t[e+4:]) != 1 {
			return 0
		}
		if o := int(bo.Uint16(t[e+8:])); o >= 1 && o <= 8 {
			return o
		}
		return 0
	}
	return 0
}
