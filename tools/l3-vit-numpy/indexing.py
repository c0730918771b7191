import numpy as np, sys
sys.argv=['x','0.1']
exec(open(__file__.replace('indexing.py', 'mamba.py')).read().split("rng=np.random")[0])
rng=np.random.default_rng(3)
b,S,H,P,Nn,Lc=2,192,2,3,4,64
X=rng.random((b,S,H,P)); A=-rng.random((b,S,H))*0.1; B=rng.standard_normal((b,S,H,Nn)); C=rng.standard_normal((b,S,H,Nn))
y,fs=run(X,A,B,C)
Cn=S//Lc
ac=np.zeros((b,H,Cn,Lc))
for bi in range(b):
  for h in range(H):
    for c in range(Cn): ac[bi,h,c]=np.cumsum(A[bi,c*Lc:(c+1)*Lc,h])
st=np.zeros((b,Cn,H,P,Nn))
for bi in range(b):
  for c in range(Cn):
    for h in range(H):
      for l in range(Lc):
        r=c*Lc+l; st[bi,c,h]+=np.outer(X[bi,r,h],B[bi,r,h])*np.exp(ac[bi,h,c,-1]-ac[bi,h,c,l])
ns=np.zeros((b,Cn+1,H,P,Nn))
for bi in range(b):
  for z in range(Cn+1):
    for h in range(H):
      zz=sum(ac[bi,h,c,-1] for c in range(z)); zc=0
      for c in range(1,z+1):
        zc+=ac[bi,h,c-1,-1]; ns[bi,z,h]+=np.exp(zz-zc)*st[bi,c-1,h]
Y=np.zeros_like(X)
for bi in range(b):
  for t in range(S):
    c,l=t//Lc,t%Lc
    for h in range(H):
      a=ac[bi,h,c]
      for s in range(l+1):
        Y[bi,t,h]+= (C[bi,t,h]@B[bi,c*Lc+s,h])*np.exp(a[l]-a[s])*X[bi,c*Lc+s,h]
      Y[bi,t,h]+= (ns[bi,c,h]@C[bi,t,h])*np.exp(a[l])
print("Y diff",np.abs(Y-y).max(),"final diff",np.abs(ns[:,-1]-fs).max())
# ViT unfold mapping
img=rng.random((2,3,32,32)); p=8
ref=np.lib.stride_tricks.sliding_window_view  # not needed
u=img.reshape(2,3,4,p,4,p).transpose(0,1,2,4,3,5)  # [B,C,hp,wp,ph,pw] == unfold(2).unfold(3)
rows=u.reshape(2,-1,p*p*3)
mine=np.zeros_like(rows).reshape(2,-1)
hq=wq=4
for bi in range(2):
  for f in range(3*32*32):
    pw=f%p; ph=(f//p)%p; wp=(f//(p*p))%wq; hp=(f//(p*p*wq))%hq; c=f//(p*p*wq*hq)
    mine[bi,f]=img[bi,c,hp*p+ph,wp*p+pw]
print("unfold diff",np.abs(mine.reshape(rows.shape)-rows).max())
