#include "textflag.h"

// The sparse dot products of dotAt, four lanes at a time: lane l adds the
// products w[idx[k]]·val[k] for k ≡ l (mod 4) as the scalar loop's s_l
// does, multiplied and added (no FMA), the four values of w read one at a
// time (a gather instruction was slower on the machines measured).

// BLOCK adds the products of positions AX … AX+3 of idx and val to the
// lanes of acc, w at SI.
#define BLOCK(idx, val, acc) \
	MOVQ        (idx)(AX*4), R8; \
	MOVQ        8(idx)(AX*4), R9; \
	MOVL        R8, R10; \
	SHRQ        $32, R8; \
	MOVL        R9, R11; \
	SHRQ        $32, R9; \
	VMOVSD      (SI)(R10*8), X3; \
	VMOVHPD     (SI)(R8*8), X3, X3; \
	VMOVSD      (SI)(R11*8), X4; \
	VMOVHPD     (SI)(R9*8), X4, X4; \
	VINSERTF128 $1, X4, Y3, Y3; \
	VMULPD      (val)(AX*8), Y3, Y3; \
	VADDPD      Y3, acc, acc

// func dotsAtAVX(dst, w []float64, idx [][]int32, val [][]float64)
// dst[r] = dotAt(w, idx[r], val[r]) for r < len(dst), without a call a
// row: the blocks of four, then the rest added to lane 0 one at a time,
// and (s0 + s1) + (s2 + s3). idx and val are at least as long as dst,
// each val[r] at least as long as idx[r], and every idx[r][k] lies in w.
TEXT ·dotsAtAVX(SB), NOSPLIT, $0-96
	XORQ BX, BX // the row
	MOVQ w_base+24(FP), SI
	MOVQ idx_base+48(FP), R14
	MOVQ val_base+72(FP), R15
	MOVQ dst_base+0(FP), R12

rows:
	CMPQ   BX, dst_len+8(FP)
	JGE    end
	MOVQ   (R14), DI   // idx[r]
	MOVQ   8(R14), CX  // len(idx[r])
	MOVQ   (R15), DX   // val[r]
	VXORPD Y0, Y0, Y0
	XORQ   AX, AX

rloop:
	LEAQ 4(AX), R8
	CMPQ R8, CX
	JGT  rtail
	BLOCK(DI, DX, Y0)
	ADDQ $4, AX
	JMP  rloop

rtail:
	VEXTRACTF128 $1, Y0, X4 // s2, s3

rtail1:
	CMPQ    AX, CX
	JGE     rsum
	MOVLQSX (DI)(AX*4), R8
	VMOVSD  (SI)(R8*8), X5
	VMULSD  (DX)(AX*8), X5, X5
	VADDSD  X5, X0, X0      // s0; s1 kept
	INCQ    AX
	JMP     rtail1

rsum:
	VUNPCKHPD X0, X0, X6 // s1
	VADDSD    X6, X0, X0 // s0 + s1
	VUNPCKHPD X4, X4, X7 // s3
	VADDSD    X7, X4, X4 // s2 + s3
	VADDSD    X4, X0, X0
	MOVSD     X0, (R12)(BX*8)
	ADDQ      $24, R14
	ADDQ      $24, R15
	INCQ      BX
	JMP       rows

end:
	VZEROUPPER
	RET
