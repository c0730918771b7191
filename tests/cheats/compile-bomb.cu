// task: relu
// expect: compile_error|compile_timeout
// A compile bomb: template instantiations that double at every level. nvcc either
// gives up (recursion/complexity limits) or is killed at the compile time limit.
#include "cuarena.h"

template <int N> struct bomb {
	static constexpr long long v = bomb<N - 1>::v + bomb<N - 2>::v + bomb<N - 3>::v;
	typedef bomb<N - 1> a;
	typedef bomb<N - 2> b;
	char pad[sizeof(typename a::a) + sizeof(typename b::b)];
};
template <> struct bomb<0> { static constexpr long long v = 1; typedef bomb<0> a; typedef bomb<0> b; char pad[1]; };
template <> struct bomb<-1> { static constexpr long long v = 1; typedef bomb<0> a; typedef bomb<0> b; char pad[1]; };
template <> struct bomb<-2> { static constexpr long long v = 1; typedef bomb<0> a; typedef bomb<0> b; char pad[1]; };

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	return (int)(bomb<100000>::v & 1);
}
