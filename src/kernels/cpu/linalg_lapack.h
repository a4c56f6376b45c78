// The LAPACK routines the linear-algebra kernels call, from the OpenBLAS Sprout links (there is no
// LAPACKE header on the build machines, so the Fortran symbols are declared here), with overloads
// on float and double.
//
// Note [Row-major matrices in LAPACK]
// LAPACK is column-major: a row-major n x n matrix A in memory is, to LAPACK, A^T. The kernels choose
// each routine's flags for that rather than transposing copies: getrf on A's memory factors A^T, and
// getri then leaves inv(A^T) column-major, which read row-major is inv(A); getrs with trans='T' on that
// factorization solves (A^T)^T X = A X; potrf with uplo='U' on a symmetric A's memory computes an upper
// U_c with A = U_c^T U_c, which read row-major is the lower L = U_c^T with A = L L^T. Only the
// right-hand sides of a solve are transposed (LAPACK solves for columns).
//
// gesdd on a row-major M x N matrix's memory decomposes A^T = U' S V'^T, so A = V' S U'^T: LAPACK's VT
// (min x M, column-major) read row-major is A's U, and LAPACK's U is A's V, transposed into place.
//
// QR is the one factorization that cannot use A's memory as it lies (geqrf on A^T would give an LQ of A):
// its kernel copies A in column-major order first.
//
// Arguments are passed by pointer, as Fortran takes them; each character argument also has a hidden
// length after the others (gfortran's ABI, harmless where a routine was translated to C). Integers are
// 32-bit: Debian's libopenblas0 is the LP64 build (matrix sizes are checked against that in the ops).
#pragma once

#include <algorithm>
#include <cstddef>

extern "C" {
void sgetrf_(const int* m, const int* n, float* a, const int* lda, int* ipiv, int* info);
void dgetrf_(const int* m, const int* n, double* a, const int* lda, int* ipiv, int* info);
void sgetri_(const int* n, float* a, const int* lda, const int* ipiv, float* work, const int* lwork, int* info);
void dgetri_(const int* n, double* a, const int* lda, const int* ipiv, double* work, const int* lwork, int* info);
void sgetrs_(const char* trans, const int* n, const int* nrhs, const float* a, const int* lda, const int* ipiv,
             float* b, const int* ldb, int* info, size_t trans_len);
void dgetrs_(const char* trans, const int* n, const int* nrhs, const double* a, const int* lda, const int* ipiv,
             double* b, const int* ldb, int* info, size_t trans_len);
void spotrf_(const char* uplo, const int* n, float* a, const int* lda, int* info, size_t uplo_len);
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info, size_t uplo_len);
void sgesdd_(const char* jobz, const int* m, const int* n, float* a, const int* lda, float* s, float* u, const int* ldu,
             float* vt, const int* ldvt, float* work, const int* lwork, int* iwork, int* info, size_t jobz_len);
void dgesdd_(const char* jobz, const int* m, const int* n, double* a, const int* lda, double* s, double* u,
             const int* ldu, double* vt, const int* ldvt, double* work, const int* lwork, int* iwork, int* info,
             size_t jobz_len);
void sgeqrf_(const int* m, const int* n, float* a, const int* lda, float* tau, float* work, const int* lwork,
             int* info);
void dgeqrf_(const int* m, const int* n, double* a, const int* lda, double* tau, double* work, const int* lwork,
             int* info);
void sorgqr_(const int* m, const int* n, const int* k, float* a, const int* lda, const float* tau, float* work,
             const int* lwork, int* info);
void dorgqr_(const int* m, const int* n, const int* k, double* a, const int* lda, const double* tau, double* work,
             const int* lwork, int* info);
}

namespace sprout::lapack {

// LU factorization with partial pivoting of the column-major n x n `a`, in place; info > 0: U(info, info)
// is exactly zero (the matrix is singular).
inline int getrf(int n, float* a, int* ipiv) {
  int info = 0;
  sgetrf_(&n, &n, a, &n, ipiv, &info);
  return info;
}
inline int getrf(int n, double* a, int* ipiv) {
  int info = 0;
  dgetrf_(&n, &n, a, &n, ipiv, &info);
  return info;
}

// The inverse from getrf's factors, in place; `work` holds lwork elements (getri_work_size).
inline int getri(int n, float* a, const int* ipiv, float* work, int lwork) {
  int info = 0;
  sgetri_(&n, a, &n, ipiv, work, &lwork, &info);
  return info;
}
inline int getri(int n, double* a, const int* ipiv, double* work, int lwork) {
  int info = 0;
  dgetri_(&n, a, &n, ipiv, work, &lwork, &info);
  return info;
}

// getri's preferred workspace for n x n matrices (a workspace query: no matrix is read).
template <class T>
int getri_work_size(int n) {
  T query = 0, dummy = 0;
  int ipiv = 0;
  getri(n, &dummy, &ipiv, &query, -1);
  return std::max(1, static_cast<int>(query));
}

// Solves op(F) X = B for the nrhs column-major columns of `b` (n x nrhs), given getrf's factors F of a;
// trans 'N': op(F) = F, 'T': its transpose.
inline int getrs(char trans, int n, int nrhs, const float* a, const int* ipiv, float* b) {
  int info = 0;
  sgetrs_(&trans, &n, &nrhs, a, &n, ipiv, b, &n, &info, 1);
  return info;
}
inline int getrs(char trans, int n, int nrhs, const double* a, const int* ipiv, double* b) {
  int info = 0;
  dgetrs_(&trans, &n, &nrhs, a, &n, ipiv, b, &n, &info, 1);
  return info;
}

// Cholesky factorization of the column-major symmetric n x n `a` in place, reading and writing the
// `uplo` ('U' or 'L') triangle; info > 0: the leading minor of order info is not positive definite.
inline int potrf(char uplo, int n, float* a) {
  int info = 0;
  spotrf_(&uplo, &n, a, &n, &info, 1);
  return info;
}
inline int potrf(char uplo, int n, double* a) {
  int info = 0;
  dpotrf_(&uplo, &n, a, &n, &info, 1);
  return info;
}

// Singular value decomposition of the column-major m x n `a` (destroyed): A = U diag(s) VT, s descending.
// jobz 'S': U m x min(m, n) and VT min(m, n) x n; 'A': U m x m and VT n x n; 'N': s only (u and vt unused).
// `iwork` holds 8 min(m, n) ints; `work` lwork elements (lwork -1: a workspace query into work[0]).
// info > 0: the iteration did not converge.
inline int gesdd(char jobz, int m, int n, float* a, float* s, float* u, int ldu, float* vt, int ldvt, float* work,
                 int lwork, int* iwork) {
  int info = 0;
  sgesdd_(&jobz, &m, &n, a, &m, s, u, &ldu, vt, &ldvt, work, &lwork, iwork, &info, 1);
  return info;
}
inline int gesdd(char jobz, int m, int n, double* a, double* s, double* u, int ldu, double* vt, int ldvt, double* work,
                 int lwork, int* iwork) {
  int info = 0;
  dgesdd_(&jobz, &m, &n, a, &m, s, u, &ldu, vt, &ldvt, work, &lwork, iwork, &info, 1);
  return info;
}

// Householder QR of the column-major m x n `a` in place: R on and above the diagonal, the reflectors below
// it with their scales in tau (min(m, n)). lwork -1: a workspace query into work[0].
inline int geqrf(int m, int n, float* a, float* tau, float* work, int lwork) {
  int info = 0;
  sgeqrf_(&m, &n, a, &m, tau, work, &lwork, &info);
  return info;
}
inline int geqrf(int m, int n, double* a, double* tau, double* work, int lwork) {
  int info = 0;
  dgeqrf_(&m, &n, a, &m, tau, work, &lwork, &info);
  return info;
}

// The first n columns of Q (m x n, m >= n >= k) from geqrf's k reflectors, which the first k columns of the
// column-major `a` hold on entry. lwork -1: a workspace query into work[0].
inline int orgqr(int m, int n, int k, float* a, const float* tau, float* work, int lwork) {
  int info = 0;
  sorgqr_(&m, &n, &k, a, &m, tau, work, &lwork, &info);
  return info;
}
inline int orgqr(int m, int n, int k, double* a, const double* tau, double* work, int lwork) {
  int info = 0;
  dorgqr_(&m, &n, &k, a, &m, tau, work, &lwork, &info);
  return info;
}

}  // namespace sprout::lapack
