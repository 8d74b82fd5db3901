#include "textflag.h"

// The constants of math's exp_amd64.s, each four times for 256-bit
// operands.
#define C4(name, v) \
	DATA name<>+0(SB)/8, v; \
	DATA name<>+8(SB)/8, v; \
	DATA name<>+16(SB)/8, v; \
	DATA name<>+24(SB)/8, v; \
	GLOBL name<>(SB), RODATA|NOPTR, $32

C4(lo, $-708.0)
C4(hi, $709.0)
C4(log2e, $1.4426950408889634073599246810018920)
C4(ln2u, $0.69314718055966295651160180568695068359375)
C4(ln2l, $0.28235290563031577122588448175013436025525412068e-12)
C4(sixteenth, $0.0625)
C4(c0, $0.5)
C4(c1, $1.0)
C4(c2, $2.0)
C4(c3, $1.6666666666666666667e-1)
C4(c4, $4.1666666666666666667e-2)
C4(c5, $8.3333333333333333333e-3)
C4(c6, $1.3888888888888888889e-3)
C4(c7, $1.9841269841269841270e-4)
C4(c8, $2.4801587301587301587e-5)
C4(bias, $1023)

// func expAVX2FMA(x []float64) int
// Four lanes at a time, each as math's archExp computes one value on its
// FMA path: k = round(x·log2e); r = (x − k·ln2u − k·ln2l)/16 (fused);
// p = r·(Horner of the Taylor terms); four times p = p·(p+2), the last
// fused with +1; the result p·2^k. A block is done only when its four
// values are in [-708, 709]: there the result is neither subnormal nor
// infinite, as archExp's special cases need.
TEXT ·expAVX2FMA(SB), NOSPLIT, $0-32
	MOVQ x_base+0(FP), SI
	MOVQ x_len+8(FP), CX
	XORQ AX, AX

loop:
	CMPQ CX, $4
	JL   done
	VMOVUPD (SI)(AX*8), Y0
	VCMPPD    $0x1d, lo<>(SB), Y0, Y1  // x >= -708 (false for NaN)
	VCMPPD    $0x12, hi<>(SB), Y0, Y2  // x <= 709
	VANDPD    Y1, Y2, Y1
	VMOVMSKPD Y1, DX
	CMPQ      DX, $15
	JNE       done

	VMULPD       log2e<>(SB), Y0, Y1
	VCVTPD2DQY   Y1, X2               // k, rounded to nearest
	VCVTDQ2PD    X2, Y3
	VFNMADD231PD ln2u<>(SB), Y3, Y0   // x −= k·ln2u
	VFNMADD231PD ln2l<>(SB), Y3, Y0   // x −= k·ln2l
	VMULPD       sixteenth<>(SB), Y0, Y0
	VMOVUPD      c8<>(SB), Y1
	VFMADD213PD  c7<>(SB), Y0, Y1     // p = p·x + c
	VFMADD213PD  c6<>(SB), Y0, Y1
	VFMADD213PD  c5<>(SB), Y0, Y1
	VFMADD213PD  c4<>(SB), Y0, Y1
	VFMADD213PD  c3<>(SB), Y0, Y1
	VFMADD213PD  c0<>(SB), Y0, Y1
	VFMADD213PD  c1<>(SB), Y0, Y1
	VMULPD       Y1, Y0, Y0
	VADDPD       c2<>(SB), Y0, Y1
	VMULPD       Y1, Y0, Y0
	VADDPD       c2<>(SB), Y0, Y1
	VMULPD       Y1, Y0, Y0
	VADDPD       c2<>(SB), Y0, Y1
	VMULPD       Y1, Y0, Y0
	VADDPD       c2<>(SB), Y0, Y1
	VFMADD213PD  c1<>(SB), Y1, Y0     // x = x·(x+2) + 1

	VPMOVSXDQ X2, Y4                  // 2^k as a float64's bits
	VPADDQ    bias<>(SB), Y4, Y4
	VPSLLQ    $52, Y4, Y4
	VMULPD    Y4, Y0, Y0
	VMOVUPD   Y0, (SI)(AX*8)
	ADDQ      $4, AX
	SUBQ      $4, CX
	JMP       loop

done:
	MOVQ AX, ret+24(FP)
	VZEROUPPER
	RET
