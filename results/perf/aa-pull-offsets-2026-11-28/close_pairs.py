C=[(0,0,0),(1,0,0),(-1,0,0),(0,1,0),(0,-1,0),(0,0,1),(0,0,-1),(1,1,0),(-1,-1,0),(1,-1,0),(-1,1,0),(1,0,1),(-1,0,-1),(1,0,-1),(-1,0,1),(0,1,1),(0,-1,-1),(0,1,-1),(0,-1,1)]
import sys
n=(160,160,160); vb=int(sys.argv[1]); th=int(sys.argv[2])
ext=[v+2 for v in n]; row=ext[0]; plane=row*ext[1]; ns=plane*ext[2]
off=[c[0]+c[1]*row+c[2]*plane for c in C]
g=64//vb; gr=(ns+g-1)//g
def cp(b): return sum(1 for i in range(19) for k in range(i+1,19) if min((b[i]-b[k])%4096,(b[k]-b[i])%4096)<th)
out=[]
for pad in range(64):
    st=(gr+pad)*g
    loc=[((j*st)*vb)%4096 for j in range(19)]
    pull=[((j*st+off[j])*vb)%4096 for j in range(19)]
    out.append((pad,cp(loc),cp(pull)))
print(' '.join('%d:%d/%d'%o for o in out))
