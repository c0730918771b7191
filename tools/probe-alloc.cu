/* probe-alloc.cu — what big device allocations cost on this GPU: cudaMalloc,
 * first-touch and second memset, cudaFree of 12 x 3.2 GB (the timing phase's
 * six input sets of a 3.2 GB elementwise task, input and output each), the same
 * through a stream-ordered pool that keeps its memory, and small alloc/free
 * pairs. Run on the GPU machine: build/probe-alloc (docs/MEASUREMENTS.md). */
#include <cstdio>
#include <chrono>
#include <cuda_runtime.h>
static double now(){return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();}
#define C(x) do{cudaError_t e=(x); if(e){printf("%s: %s\n",#x,cudaGetErrorString(e)); return 1;}}while(0)
int main(){
  double t=now(); C(cudaFree(0)); printf("context %.3f s\n", now()-t);
  size_t gb32 = (size_t)3200<<20;
  void* p[16];
  for (int rep=0; rep<2; rep++){
    t=now(); for(int i=0;i<12;i++) C(cudaMalloc(&p[i], gb32)); C(cudaDeviceSynchronize()); double ta=now()-t;
    t=now(); for(int i=0;i<12;i++) C(cudaMemset(p[i], 1, gb32)); C(cudaDeviceSynchronize()); double tm=now()-t;
    t=now(); for(int i=0;i<12;i++) C(cudaMemset(p[i], 2, gb32)); C(cudaDeviceSynchronize()); double tm2=now()-t;
    t=now(); for(int i=0;i<12;i++) C(cudaFree(p[i])); C(cudaDeviceSynchronize()); double tf=now()-t;
    printf("cudaMalloc 12 x 3.2 GB: alloc %.3f s, first touch memset %.3f s, second memset %.3f s, free %.3f s\n", ta, tm, tm2, tf);
  }
  cudaMemPool_t pool; C(cudaDeviceGetDefaultMemPool(&pool, 0));
  unsigned long long th = ~0ull; C(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &th));
  cudaStream_t s; C(cudaStreamCreate(&s));
  for (int rep=0; rep<3; rep++){
    t=now(); for(int i=0;i<12;i++) C(cudaMallocAsync(&p[i], gb32, s)); C(cudaStreamSynchronize(s)); double ta=now()-t;
    t=now(); for(int i=0;i<12;i++) C(cudaMemsetAsync(p[i], 1, gb32, s)); C(cudaStreamSynchronize(s)); double tm=now()-t;
    t=now(); for(int i=0;i<12;i++) C(cudaFreeAsync(p[i], s)); C(cudaStreamSynchronize(s)); double tf=now()-t;
    printf("pool 12 x 3.2 GB (rep %d): alloc %.3f s, memset %.3f s, free %.3f s\n", rep, ta, tm, tf);
  }
  size_t small = 64<<20;
  t=now(); for(int k=0;k<100;k++){ C(cudaMalloc(&p[0], small)); C(cudaFree(p[0])); } printf("100 x (cudaMalloc+cudaFree 64 MB): %.3f s\n", now()-t);
  return 0;
}
