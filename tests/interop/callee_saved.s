# callee_saved.s - long check_callee_saved(long (*f)(int), int arg):
# puts known values in rbx, rbp and r12 to r15, calls f(arg), and aborts
# (exit status 86 + register number) unless every one comes back unchanged.
# Assembled by `as` in every combination of the interop test.
	.text
	.globl	check_callee_saved
	.type	check_callee_saved, @function
check_callee_saved:
	pushq	%rbx
	pushq	%rbp
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	subq	$8, %rsp                 # 16-byte alignment at the call
	movq	%rdi, %rax
	movl	%esi, %edi
	movabsq	$0x1111111111111111, %rbx
	movabsq	$0x2222222222222222, %rbp
	movabsq	$0x3333333333333333, %r12
	movabsq	$0x4444444444444444, %r13
	movabsq	$0x5555555555555555, %r14
	movabsq	$0x6666666666666666, %r15
	call	*%rax
	movl	$86, %edi
	movabsq	$0x1111111111111111, %rcx
	cmpq	%rcx, %rbx
	jne	.Lbad
	incl	%edi
	movabsq	$0x2222222222222222, %rcx
	cmpq	%rcx, %rbp
	jne	.Lbad
	incl	%edi
	movabsq	$0x3333333333333333, %rcx
	cmpq	%rcx, %r12
	jne	.Lbad
	incl	%edi
	movabsq	$0x4444444444444444, %rcx
	cmpq	%rcx, %r13
	jne	.Lbad
	incl	%edi
	movabsq	$0x5555555555555555, %rcx
	cmpq	%rcx, %r14
	jne	.Lbad
	incl	%edi
	movabsq	$0x6666666666666666, %rcx
	cmpq	%rcx, %r15
	jne	.Lbad
	addq	$8, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbp
	popq	%rbx
	ret
.Lbad:
	call	exit@PLT
	.size	check_callee_saved, .-check_callee_saved
	.section	.note.GNU-stack,"",@progbits
