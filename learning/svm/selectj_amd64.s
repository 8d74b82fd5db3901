#include "textflag.h"

// func selectJAVX2(grad, low, qd []float64, qi []float32, c *[12]float64, out *[16]float64)
// selectPair's second loop over len(grad) entries (a multiple of 4), four
// at a time: lane l takes the entries t ≡ l (mod 4). c holds gmax, qdi,
// 2y_i, tau, the first four indices (0 1 2 3), −Inf, −1 and 4. For each
// lane, out[l] and out[4+l] are the largest v = low·grad (a NaN never
// counts) and the last index reaching it; out[8+l] and out[12+l] the
// largest gd²/a over the entries with gd = gmax + v > 0, where a is
// (qdi + qd) − (2y_i·low)·float64(qi) or tau when a ≤ 0, and the last
// index reaching it (−Inf and −1 when none). Every value is computed with
// the operations of the scalar loop, in its order, without FMA.
TEXT ·selectJAVX2(SB), NOSPLIT, $0-112
	MOVQ grad_base+0(FP), SI
	MOVQ grad_len+8(FP), CX
	MOVQ low_base+24(FP), DI
	MOVQ qd_base+48(FP), DX
	MOVQ qi_base+72(FP), R8
	MOVQ c+96(FP), R9
	MOVQ out+104(FP), R10

	VBROADCASTSD 64(R9), Y7  // largest v: −Inf
	VBROADCASTSD 72(R9), Y8  // its index: −1
	VMOVAPD      Y7, Y9      // largest gd²/a: −Inf
	VMOVAPD      Y8, Y10     // its index: −1
	VMOVUPD      32(R9), Y11 // the lanes' indices
	VBROADCASTSD 0(R9), Y12  // gmax
	VXORPD       Y13, Y13, Y13
	VBROADCASTSD 80(R9), Y14 // 4
	VBROADCASTSD 24(R9), Y15 // tau
	XORQ         AX, AX      // byte offset of float64s
	XORQ         R11, R11    // byte offset of float32s

loop:
	CMPQ      CX, $4
	JL        done
	VMOVUPD   (DI)(AX*1), Y0         // low
	VMULPD    (SI)(AX*1), Y0, Y1     // v = low·grad
	VCMPPD    $0x1D, Y7, Y1, Y3      // v ≥ largest (ordered: NaN fails)
	VBLENDVPD Y3, Y1, Y7, Y7
	VBLENDVPD Y3, Y11, Y8, Y8
	VADDPD    Y1, Y12, Y2            // gd = gmax + v
	VCMPPD    $0x1E, Y13, Y2, Y6     // gd > 0
	VMOVMSKPD Y6, BX
	TESTL     BX, BX
	JZ        next
	VBROADCASTSD 16(R9), Y4          // 2y_i
	VMULPD    Y0, Y4, Y4             // 2y_i·low
	VCVTPS2PD (R8)(R11*1), Y5        // qi as float64
	VMULPD    Y5, Y4, Y4             // (2y_i·low)·qi
	VBROADCASTSD 8(R9), Y5           // qdi
	VADDPD    (DX)(AX*1), Y5, Y5     // qdi + qd
	VSUBPD    Y4, Y5, Y5             // a
	VCMPPD    $0x12, Y13, Y5, Y3     // a ≤ 0
	VBLENDVPD Y3, Y15, Y5, Y5        // tau there
	VMULPD    Y2, Y2, Y4             // gd²
	VDIVPD    Y5, Y4, Y4             // gd²/a
	VCMPPD    $0x1D, Y9, Y4, Y3      // ≥ largest
	VANDPD    Y6, Y3, Y3             // and gd > 0
	VBLENDVPD Y3, Y4, Y9, Y9
	VBLENDVPD Y3, Y11, Y10, Y10

next:
	VADDPD Y14, Y11, Y11
	ADDQ   $32, AX
	ADDQ   $16, R11
	SUBQ   $4, CX
	JMP    loop

done:
	VMOVUPD Y7, 0(R10)
	VMOVUPD Y8, 32(R10)
	VMOVUPD Y9, 64(R10)
	VMOVUPD Y10, 96(R10)
	VZEROUPPER
	RET

// func addRowsAVX2(grad []float64, qi, qj []float32, di, dj float64)
// grad[k] += float64(qi[k])·di + float64(qj[k])·dj over len(grad) entries
// (a multiple of 4), four at a time, with step's operations in its order
// and without FMA.
TEXT ·addRowsAVX2(SB), NOSPLIT, $0-88
	MOVQ         grad_base+0(FP), SI
	MOVQ         grad_len+8(FP), CX
	MOVQ         qi_base+24(FP), DI
	MOVQ         qj_base+48(FP), DX
	VBROADCASTSD di+72(FP), Y6
	VBROADCASTSD dj+80(FP), Y7
	XORQ         AX, AX
	XORQ         R11, R11

add8:
	CMPQ      CX, $8
	JL        add4
	VCVTPS2PD (DI)(R11*1), Y0
	VCVTPS2PD (DX)(R11*1), Y1
	VCVTPS2PD 16(DI)(R11*1), Y2
	VCVTPS2PD 16(DX)(R11*1), Y3
	VMULPD    Y6, Y0, Y0
	VMULPD    Y7, Y1, Y1
	VMULPD    Y6, Y2, Y2
	VMULPD    Y7, Y3, Y3
	VADDPD    Y1, Y0, Y0
	VADDPD    Y3, Y2, Y2
	VADDPD    (SI)(AX*1), Y0, Y0
	VADDPD    32(SI)(AX*1), Y2, Y2
	VMOVUPD   Y0, (SI)(AX*1)
	VMOVUPD   Y2, 32(SI)(AX*1)
	ADDQ      $64, AX
	ADDQ      $32, R11
	SUBQ      $8, CX
	JMP       add8

add4:
	CMPQ      CX, $4
	JL        addDone
	VCVTPS2PD (DI)(R11*1), Y0
	VCVTPS2PD (DX)(R11*1), Y1
	VMULPD    Y6, Y0, Y0
	VMULPD    Y7, Y1, Y1
	VADDPD    Y1, Y0, Y0
	VADDPD    (SI)(AX*1), Y0, Y0
	VMOVUPD   Y0, (SI)(AX*1)
	ADDQ      $32, AX
	ADDQ      $16, R11
	SUBQ      $4, CX
	JMP       add4

addDone:
	VZEROUPPER
	RET

// func selectIAVX2(grad, up []float64, c *[12]float64, out *[16]float64)
// selectPair's first loop over len(grad) entries (a multiple of 4), four
// at a time: out[l] and out[4+l] are lane l's largest v = up·grad (a NaN
// never counts) and the last index reaching it (−Inf and −1 when none); c
// as selectJAVX2's.
TEXT ·selectIAVX2(SB), NOSPLIT, $0-64
	MOVQ         grad_base+0(FP), SI
	MOVQ         grad_len+8(FP), CX
	MOVQ         up_base+24(FP), DI
	MOVQ         c+48(FP), R9
	MOVQ         out+56(FP), R10
	VBROADCASTSD 64(R9), Y7
	VBROADCASTSD 72(R9), Y8
	VMOVUPD      32(R9), Y11
	VBROADCASTSD 80(R9), Y14
	XORQ         AX, AX

iloop:
	CMPQ      CX, $4
	JL        idone
	VMOVUPD   (DI)(AX*1), Y0
	VMULPD    (SI)(AX*1), Y0, Y1
	VCMPPD    $0x1D, Y7, Y1, Y3
	VBLENDVPD Y3, Y1, Y7, Y7
	VBLENDVPD Y3, Y11, Y8, Y8
	VADDPD    Y14, Y11, Y11
	ADDQ      $32, AX
	SUBQ      $4, CX
	JMP       iloop

idone:
	VMOVUPD Y7, 0(R10)
	VMOVUPD Y8, 32(R10)
	VZEROUPPER
	RET
