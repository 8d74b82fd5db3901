#include "textflag.h"

// REDUCE(a0, a1, a2, a3, t0, t1, t2, t3, x0, x1, out) widens the 32 float32
// lanes of the accumulators a0..a3 to float64 and adds them in a fixed
// order into the low double of out's X register (x0, x1 are the X names of
// t0, t1; t0..t3 are scratch).
#define REDUCE(a0, a1, a2, a3, t0, t1, t2, t3, x0, x1, xa0, xa1, xa2, xa3, xt1, xt3) \
	VCVTPS2PD    xa0, t0;     \
	VEXTRACTF128 $1, a0, xt1; \
	VCVTPS2PD    xt1, t1;     \
	VADDPD       t1, t0, t0;  \
	VCVTPS2PD    xa1, t2;     \
	VEXTRACTF128 $1, a1, xt3; \
	VCVTPS2PD    xt3, t3;     \
	VADDPD       t3, t2, t2;  \
	VADDPD       t2, t0, t0;  \
	VCVTPS2PD    xa2, t2;     \
	VEXTRACTF128 $1, a2, xt3; \
	VCVTPS2PD    xt3, t3;     \
	VADDPD       t3, t2, t2;  \
	VADDPD       t2, t0, t0;  \
	VCVTPS2PD    xa3, t2;     \
	VEXTRACTF128 $1, a3, xt3; \
	VCVTPS2PD    xt3, t3;     \
	VADDPD       t3, t2, t2;  \
	VADDPD       t2, t0, t0;  \
	VEXTRACTF128 $1, t0, x1;  \
	VADDPD       x1, x0, x0;  \
	VPERMILPD    $1, x0, x1;  \
	VADDSD       x1, x0, x0

// func dotAVX2(a, b []float32) float64
// Σ a[k]·b[k] over len(a) entries, len(a) a multiple of 8 and b at least
// as long: four float32 accumulators of 8 lanes, 32 entries a step with
// VFMADD231PS, then 8 a step into the first; the 32 lanes are widened to
// float64 and added in a fixed order (REDUCE).
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
	REDUCE(Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, X4, X5, X0, X1, X2, X3, X5, X7)
	VMOVSD X4, ret+48(FP)
	VZEROUPPER
	RET

// func dotsAVX2(x []float32, rows [][]float32, dst []float64)
// dst[r] = Σ x[k]·rows[r][k] over len(x) entries (a multiple of 8; every
// row at least as long), each exactly as dotAVX2(x, rows[r]) sums it: two
// rows at a time share the loads of x and keep eight accumulators busy.
TEXT ·dotsAVX2(SB), NOSPLIT, $0-72
	MOVQ x_base+0(FP), SI
	MOVQ x_len+8(FP), R8
	MOVQ rows_base+24(FP), R9
	MOVQ rows_len+32(FP), R10
	MOVQ dst_base+48(FP), R11

pairs:
	CMPQ   R10, $2
	JL     single
	MOVQ   (R9), DI
	MOVQ   24(R9), DX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	XORQ   AX, AX
	MOVQ   R8, CX

pair32:
	CMPQ        CX, $32
	JL          pair8
	VMOVUPS     (SI)(AX*1), Y8
	VMOVUPS     32(SI)(AX*1), Y9
	VMOVUPS     64(SI)(AX*1), Y10
	VMOVUPS     96(SI)(AX*1), Y11
	VFMADD231PS (DI)(AX*1), Y8, Y0
	VFMADD231PS 32(DI)(AX*1), Y9, Y1
	VFMADD231PS 64(DI)(AX*1), Y10, Y2
	VFMADD231PS 96(DI)(AX*1), Y11, Y3
	VFMADD231PS (DX)(AX*1), Y8, Y4
	VFMADD231PS 32(DX)(AX*1), Y9, Y5
	VFMADD231PS 64(DX)(AX*1), Y10, Y6
	VFMADD231PS 96(DX)(AX*1), Y11, Y7
	ADDQ        $128, AX
	SUBQ        $32, CX
	JMP         pair32

pair8:
	CMPQ        CX, $8
	JL          pairreduce
	VMOVUPS     (SI)(AX*1), Y8
	VFMADD231PS (DI)(AX*1), Y8, Y0
	VFMADD231PS (DX)(AX*1), Y8, Y4
	ADDQ        $32, AX
	SUBQ        $8, CX
	JMP         pair8

pairreduce:
	REDUCE(Y0, Y1, Y2, Y3, Y8, Y9, Y10, Y11, X8, X9, X0, X1, X2, X3, X9, X11)
	VMOVSD X8, (R11)
	REDUCE(Y4, Y5, Y6, Y7, Y12, Y13, Y14, Y15, X12, X13, X4, X5, X6, X7, X13, X15)
	VMOVSD X12, 8(R11)
	ADDQ   $48, R9
	ADDQ   $16, R11
	SUBQ   $2, R10
	JMP    pairs

single:
	CMPQ   R10, $1
	JL     done
	MOVQ   (R9), DI
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	XORQ   AX, AX
	MOVQ   R8, CX

one32:
	CMPQ        CX, $32
	JL          one8
	VMOVUPS     (SI)(AX*1), Y8
	VMOVUPS     32(SI)(AX*1), Y9
	VMOVUPS     64(SI)(AX*1), Y10
	VMOVUPS     96(SI)(AX*1), Y11
	VFMADD231PS (DI)(AX*1), Y8, Y0
	VFMADD231PS 32(DI)(AX*1), Y9, Y1
	VFMADD231PS 64(DI)(AX*1), Y10, Y2
	VFMADD231PS 96(DI)(AX*1), Y11, Y3
	ADDQ        $128, AX
	SUBQ        $32, CX
	JMP         one32

one8:
	CMPQ        CX, $8
	JL          onereduce
	VMOVUPS     (SI)(AX*1), Y8
	VFMADD231PS (DI)(AX*1), Y8, Y0
	ADDQ        $32, AX
	SUBQ        $8, CX
	JMP         one8

onereduce:
	REDUCE(Y0, Y1, Y2, Y3, Y8, Y9, Y10, Y11, X8, X9, X0, X1, X2, X3, X9, X11)
	VMOVSD X8, (R11)

done:
	VZEROUPPER
	RET
