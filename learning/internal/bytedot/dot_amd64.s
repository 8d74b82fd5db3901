#include "textflag.h"

// func dotAVX2(a, b []uint8) int64
// Σ a[k]·b[k] over len(a) bytes (b at least as long), 32 bytes a step:
// VPMOVZXBW widens 16 bytes to 16 words, VPMADDWD multiplies them and adds
// pairs into 8 dwords, two dword accumulators. Exact while len(a) ≤ 32768
// (every partial sum < 2³¹); the caller checks.
TEXT ·dotAVX2(SB), NOSPLIT, $0-56
	MOVQ a_base+0(FP), SI
	MOVQ a_len+8(FP), CX
	MOVQ b_base+24(FP), DI
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	XORQ AX, AX
	MOVQ CX, DX
	ANDQ $-32, DX

loop32:
	CMPQ AX, DX
	JGE  step16
	VPMOVZXBW (SI)(AX*1), Y2
	VPMOVZXBW (DI)(AX*1), Y3
	VPMADDWD  Y3, Y2, Y2
	VPADDD    Y2, Y0, Y0
	VPMOVZXBW 16(SI)(AX*1), Y4
	VPMOVZXBW 16(DI)(AX*1), Y5
	VPMADDWD  Y5, Y4, Y4
	VPADDD    Y4, Y1, Y1
	ADDQ      $32, AX
	JMP       loop32

step16:
	MOVQ CX, DX
	SUBQ AX, DX
	CMPQ DX, $16
	JLT  reduce
	VPMOVZXBW (SI)(AX*1), Y2
	VPMOVZXBW (DI)(AX*1), Y3
	VPMADDWD  Y3, Y2, Y2
	VPADDD    Y2, Y0, Y0
	ADDQ      $16, AX

reduce:
	VPADDD       Y1, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDD       X1, X0, X0
	VPSHUFD      $0x4E, X0, X1
	VPADDD       X1, X0, X0
	VPSHUFD      $0xB1, X0, X1
	VPADDD       X1, X0, X0
	VMOVD        X0, BX

tail:
	CMPQ    AX, CX
	JGE     done
	MOVBQZX (SI)(AX*1), R8
	MOVBQZX (DI)(AX*1), R9
	IMULQ   R9, R8
	ADDQ    R8, BX
	INCQ    AX
	JMP     tail

done:
	VZEROUPPER
	MOVQ BX, ret+48(FP)
	RET
