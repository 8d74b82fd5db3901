#include "textflag.h"

// func dotAVX2(a, b []float32) float64
// Σ a[k]·b[k] over len(a) entries, len(a) a multiple of 8 and b at least
// as long: four float32 accumulators of 8 lanes, 32 entries a step with
// VFMADD231PS, then 8 a step; the 32 lanes are widened to float64 and
// added in a fixed order.
TEXT ·dotAVX2(SB), NOSPLIT, $0-56
	MOVQ a_base+0(FP), SI
	MOVQ a_len+8(FP), CX
	MOVQ b_base+24(FP), DI
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3

loop32:
	CMPQ        CX, $32
	JL          loop8
	VMOVUPS     (SI), Y4
	VMOVUPS     32(SI), Y5
	VMOVUPS     64(SI), Y6
	VMOVUPS     96(SI), Y7
	VFMADD231PS (DI), Y4, Y0
	VFMADD231PS 32(DI), Y5, Y1
	VFMADD231PS 64(DI), Y6, Y2
	VFMADD231PS 96(DI), Y7, Y3
	ADDQ        $128, SI
	ADDQ        $128, DI
	SUBQ        $32, CX
	JMP         loop32

loop8:
	CMPQ        CX, $8
	JL          reduce
	VMOVUPS     (SI), Y4
	VFMADD231PS (DI), Y4, Y0
	ADDQ        $32, SI
	ADDQ        $32, DI
	SUBQ        $8, CX
	JMP         loop8

reduce:
	VCVTPS2PD    X0, Y4
	VEXTRACTF128 $1, Y0, X5
	VCVTPS2PD    X5, Y5
	VADDPD       Y5, Y4, Y4
	VCVTPS2PD    X1, Y6
	VEXTRACTF128 $1, Y1, X7
	VCVTPS2PD    X7, Y7
	VADDPD       Y7, Y6, Y6
	VADDPD       Y6, Y4, Y4
	VCVTPS2PD    X2, Y6
	VEXTRACTF128 $1, Y2, X7
	VCVTPS2PD    X7, Y7
	VADDPD       Y7, Y6, Y6
	VADDPD       Y6, Y4, Y4
	VCVTPS2PD    X3, Y6
	VEXTRACTF128 $1, Y3, X7
	VCVTPS2PD    X7, Y7
	VADDPD       Y7, Y6, Y6
	VADDPD       Y6, Y4, Y4
	VEXTRACTF128 $1, Y4, X5
	VADDPD       X5, X4, X4
	VPERMILPD    $1, X4, X5
	VADDSD       X5, X4, X4
	VMOVSD       X4, ret+48(FP)
	VZEROUPPER
	RET
